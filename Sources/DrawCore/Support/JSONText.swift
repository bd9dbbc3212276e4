/// JSON string-literal escaping identical to ECMAScript's `JSON.stringify`.
///
/// Shared by the canonical entrants encoding (which a browser must be able to rebuild byte for
/// byte) and the wire messages, so there is one escaping rule in the whole server:
/// `"` and `\` get a backslash; U+0008, U+0009, U+000A, U+000C, U+000D become `\b \t \n \f \r`;
/// other code points below U+0020 become `\u00XX` (lowercase hex); everything else is literal UTF-8.
public enum JSONText {
    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends `s` as a quoted JSON string literal.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings need no escape at all: copied whole (a draw's list has thousands).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x08: out += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0C: out += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x00..<0x20:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        hex[Int(b >> 4)], hex[Int(b & 0xf)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
