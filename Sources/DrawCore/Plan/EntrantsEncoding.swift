import Crypto

/// The canonical byte encoding of a draw's entrants, whose SHA-256 is the `entrantsHash`.
///
/// It is a compact JSON array, one object a player in draw order, keys in this exact order:
/// `{"userId":10,"name":"…","username":"…","regDate":"yyyy-MM-dd","void":false}`, no white space.
/// Strings are escaped as ECMAScript's `JSON.stringify` does, so a browser can rebuild the bytes:
/// `"` and `\` get a backslash; U+0008, U+0009, U+000A, U+000C, U+000D become `\b \t \n \f \r`;
/// other code points below U+0020 become `\u00XX` (lowercase hex); everything else is literal UTF-8.
public enum EntrantsEncoding {
    /// The canonical JSON bytes for `players`.
    public static func canonicalJSON(_ players: [Player]) -> [UInt8] {
        var out: [UInt8] = []
        out.append(UInt8(ascii: "["))
        for (i, p) in players.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("{\"userId\":\(p.userId),\"name\":".utf8)
            appendString(p.name, to: &out)
            out += Array(",\"username\":".utf8)
            appendString(p.username, to: &out)
            out += Array(",\"regDate\":\"\(p.regDate)\",\"void\":\(p.isVoid)}".utf8)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Hex SHA-256 of `canonicalJSON(players)`.
    public static func hash(_ players: [Player]) -> String {
        Hex.encode(SHA256.hash(data: canonicalJSON(players)))
    }

    /// Appends `s` as a JSON string literal with `JSON.stringify`'s escaping.
    static func appendString(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
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
                out += Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 0xf)]]
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
