import Crypto

/// One round of a drand chain: its number, its randomness and the BLS signature it comes from.
///
/// drand defines `randomness = SHA-256(signature)`; `isConsistent` checks exactly that. The BLS
/// signature itself (against the chain's public key) is not checked by the server: no maintained
/// BLS12-381 library is available to it. `tools/verify_draw.py` checks it when `py_ecc` is
/// installed, and anyone can compare the round with a public relay (`docs/FAIRNESS.md` §9).
public struct BeaconRound: Sendable, Hashable {
    public let round: UInt64
    /// 32 bytes.
    public let randomness: [UInt8]
    /// The signature's bytes (48 on quicknet, 96 on the older chains).
    public let signature: [UInt8]

    /// Longest signature accepted, in bytes (a G2 point, uncompressed, is 192).
    public static let maxSignatureBytes = 192

    /// `nil` unless `round ≥ 1`, the randomness is 32 bytes and the signature 1…192 bytes.
    public init?(round: UInt64, randomness: [UInt8], signature: [UInt8]) {
        guard round >= 1, randomness.count == 32, (1...Self.maxSignatureBytes).contains(signature.count) else {
            return nil
        }
        self.round = round
        self.randomness = randomness
        self.signature = signature
    }

    /// From the hex a beacon answers with.
    public init?(round: UInt64, randomnessHex: String, signatureHex: String) {
        guard let r = Hex.decode(randomnessHex), let s = Hex.decode(signatureHex) else { return nil }
        self.init(round: round, randomness: r, signature: s)
    }

    public var randomnessHex: String { Hex.encode(randomness) }
    public var signatureHex: String { Hex.encode(signature) }

    /// Whether `randomness` is SHA-256 of `signature`, as drand defines it.
    public var isConsistent: Bool {
        ConstantTime.equals(Array(SHA256.hash(data: signature)), randomness)
    }
}
