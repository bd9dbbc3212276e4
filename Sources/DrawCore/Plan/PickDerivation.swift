import Crypto

/// Derives each round's pick from the seed, exactly as `docs/FAIRNESS.md` specifies.
///
/// For round `r` (1-based) of draw `id`, with `n` entrants:
/// 1. block 0 is HMAC-SHA256(key: seed, message: UTF-8 of "`id`:`r`"); block j ≥ 1 uses the
///    message "`id`:`r`:`j`";
/// 2. each 32-byte block is read as eight big-endian unsigned 32-bit words, in order;
/// 3. the first word `w` with `w < limit`, where `limit = floor(2^32 / n) * n`, gives the index
///    `w mod n` (rejection sampling: words at or above `limit` would favour low indices).
public enum PickDerivation {
    /// The entrant index (0-based) picked in `round`. `count` must be at least 1.
    public static func index(seed: Seed, drawId: String, round: Int, count: Int) -> Int {
        precondition(count >= 1, "a pick needs at least one entrant")
        let n = UInt64(count)
        let limit = (UInt64(1) << 32) / n * n
        let key = SymmetricKey(data: seed.bytes)
        var block = 0
        while true {
            let message = block == 0 ? "\(drawId):\(round)" : "\(drawId):\(round):\(block)"
            let mac = Array(HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key))
            for w in 0..<8 {
                let word = UInt64(mac[4 * w]) << 24 | UInt64(mac[4 * w + 1]) << 16
                    | UInt64(mac[4 * w + 2]) << 8 | UInt64(mac[4 * w + 3])
                if word < limit { return Int(word % n) }
            }
            block += 1
        }
    }
}
