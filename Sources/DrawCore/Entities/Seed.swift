import Crypto

/// The 32 secret bytes a draw's picks are derived from.
///
/// The seed is committed to (by its SHA-256) before round 1 and revealed after the draw, so that
/// anyone can recompute every pick. It must come from a secure random source (`RandomSource`).
public struct Seed: Sendable, Hashable {
    /// Always exactly `Seed.byteCount` bytes.
    public let bytes: [UInt8]
    public static let byteCount = 32

    /// Wraps 32 bytes; any other length is `nil`.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Seed.byteCount else { return nil }
        self.bytes = bytes
    }

    /// Parses 64 hex characters.
    public init?(hex: String) {
        guard let b = Hex.decode(hex) else { return nil }
        self.init(bytes: b)
    }

    /// The seed as 64 lowercase hex characters (the revealed form).
    public var hex: String { Hex.encode(bytes) }

    /// Hex SHA-256 of the raw seed bytes: what the host publishes before round 1.
    public var commitment: String { Hex.encode(SHA256.hash(data: bytes)) }
}
