import Crypto

/// The canonical byte encoding of a draw's entrants, whose SHA-256 is the `entrantsHash`.
///
/// It is a compact JSON array, one object a player in draw order, keys in this exact order:
/// `{"userId":10,"name":"…","username":"…","regDate":"yyyy-MM-dd","void":false}`, no white space.
/// Strings are escaped as ECMAScript's `JSON.stringify` does (see `JSONText`), so a browser can
/// rebuild the bytes.
public enum EntrantsEncoding {
    /// The canonical JSON bytes for `players`.
    public static func canonicalJSON(_ players: [Player]) -> [UInt8] {
        var out: [UInt8] = []
        out.append(UInt8(ascii: "["))
        for (i, p) in players.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("{\"userId\":\(p.userId),\"name\":".utf8)
            JSONText.appendString(p.name, to: &out)
            out += Array(",\"username\":".utf8)
            JSONText.appendString(p.username, to: &out)
            out += Array(",\"regDate\":\"\(p.regDate)\",\"void\":\(p.isVoid)}".utf8)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Hex SHA-256 of `canonicalJSON(players)`.
    public static func hash(_ players: [Player]) -> String {
        Hex.encode(SHA256.hash(data: canonicalJSON(players)))
    }

}
