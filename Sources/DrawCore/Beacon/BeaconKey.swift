import Crypto

/// The key a beacon draw's picks are derived with (`docs/FAIRNESS.md` §9):
/// `key = HMAC-SHA256(key: seed, message: randomness_R)`, the 32 raw bytes of each. Every pick
/// is then §4's derivation with `key` in place of the seed, so neither the server (which chose
/// the seed before `R` existed) nor the beacon (which never sees the seed) can steer a pick.
public enum BeaconKey {
    /// The pick key of a draw with `seed` and beacon randomness `randomness` (32 bytes).
    public static func derive(seed: Seed, randomness: [UInt8]) -> Seed {
        let mac = HMAC<SHA256>.authenticationCode(for: randomness, using: SymmetricKey(data: seed.bytes))
        guard let key = Seed(bytes: Array(mac)) else { preconditionFailure("HMAC-SHA256 is 32 bytes") }
        return key
    }
}
