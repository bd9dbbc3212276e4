/// Room names as the protocol allows them: `[a-z0-9-]{1,64}`.
///
/// Checked byte by byte on UTF-8, so no Unicode look-alike or normalisation trick can sneak a
/// different name (or a path separator) through. The same rule is written once per language
/// (public/js/route.js, Tests/e2e/helpers/protocol.py), and Tests/vectors/protocol.json holds
/// the names all of them must agree on.
public enum RoomName {
    /// The room that exists from startup.
    public static let lobby = "lobby"
    public static let maxLength = 64

    /// Whether `name` may name a room.
    public static func isValid(_ name: String) -> Bool {
        let bytes = name.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy { b in
            (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                || b == UInt8(ascii: "-")
        }
    }
}
