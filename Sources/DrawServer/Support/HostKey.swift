import DrawCore

/// Host keys: 24 random bytes (192 bits) as 48 lowercase hex characters.
///
/// The key is a bearer secret: whoever holds it may start draws in its room. It is shown once
/// (the 201 of room creation; the lobby's in the startup log the CLI prints) and never
/// broadcast, logged or put in a snapshot by the server.
enum HostKey {
    static let byteCount = 24

    static func generate(using random: any RandomSource) -> String {
        let bytes = random.bytes(byteCount)
        precondition(bytes.count == byteCount, "RandomSource returned \(bytes.count) bytes, not \(byteCount)")
        return Hex.encode(bytes)
    }

    /// Constant-time comparison of a presented key with the room's key.
    static func matches(_ presented: String, _ expected: [UInt8]) -> Bool {
        ConstantTime.equals(Array(presented.utf8), expected)
    }
}
