/// Host keys: 24 random bytes (192 bits) as 48 lowercase hex characters.
///
/// The key is a bearer secret: whoever holds it may start draws in its room. It is shown once
/// (the 201 of room creation; the lobby's in the startup log the CLI prints) and never
/// broadcast, logged or put in a snapshot by the server. What is kept for good is its hash
/// (`HostKeyHash`), never the key.
///
/// In Core because three layers make or check one: the server (rooms it creates), the data
/// layer (the lobby key file) and the composition root (which picks where the lobby key comes from).
public enum HostKey {
    /// Random bytes in a key.
    public static let byteCount = 24
    /// Characters in a key's text form.
    public static let length = byteCount * 2

    /// A fresh key from `random`.
    public static func generate(using random: any RandomSource) -> String {
        let bytes = random.bytes(byteCount)
        precondition(bytes.count == byteCount, "RandomSource returned \(bytes.count) bytes, not \(byteCount)")
        return Hex.encode(bytes)
    }

    /// Whether `text` has the form `generate` makes: exactly `length` lowercase hex characters.
    /// Lowercase only, because keys are compared byte for byte: an uppercase copy of a key would
    /// look right and never match.
    public static func isWellFormed(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == length && bytes.allSatisfy { b in
            (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f"))
        }
    }

    /// Constant-time comparison of a presented key with the room's key (its UTF-8 bytes).
    public static func matches(_ presented: String, _ expected: [UInt8]) -> Bool {
        ConstantTime.equals(Array(presented.utf8), expected)
    }
}
