import Crypto

/// What is kept of a host key: its SHA-256, so a copy of the database (a backup, a support
/// bundle, a stolen disk) does not hand out the right to start draws.
///
/// A plain, unsalted SHA-256 is enough here, unlike for passwords: a key is 192 random bits
/// (`HostKey`), so there is no dictionary to try and nothing a salt or a slow hash would protect;
/// a slow hash would only cost CPU on every host join.
public struct HostKeyHash: Sendable, Hashable, CustomStringConvertible {
    /// The 32 bytes of the digest.
    public let bytes: [UInt8]

    /// The hash of `key` (its UTF-8 bytes, as presented on the wire).
    public init(of key: String) {
        bytes = Array(SHA256.hash(data: Array(key.utf8)))
    }

    /// A stored hash from its 64 hex characters; `nil` if `hex` is not one.
    public init?(hex: String) {
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
        self.bytes = bytes
    }

    /// Lowercase hex, the form the store keeps.
    public var hex: String { Hex.encode(bytes) }

    /// Whether `presented` is the key this is the hash of. Compares the digests in constant time,
    /// so how long a refusal takes tells nothing about how close a guess was.
    public func matches(_ presented: String) -> Bool {
        ConstantTime.equals(HostKeyHash(of: presented).bytes, bytes)
    }

    public var description: String { "sha256:\(hex)" }
}
