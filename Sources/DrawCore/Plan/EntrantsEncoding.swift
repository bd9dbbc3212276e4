import Crypto

/// The canonical byte encoding of a draw's entrants, whose SHA-256 is the `entrantsHash`.
///
/// It is a compact JSON array, one object a player in draw order, keys in this exact order:
/// `{"userId":10,"name":"…","username":"…","regDate":"yyyy-MM-dd","void":false}`, no white space.
/// Strings are escaped as ECMAScript's `JSON.stringify` does (see `JSONText`), so a browser can
/// rebuild the bytes.
public enum EntrantsEncoding {
    /// The canonical JSON bytes for `players`.
    ///
    /// Written byte by byte, without a `String` per field: a draw's list is encoded at least once
    /// per draw on the service thread (its hash), and with 100,000 entrants the interpolating
    /// version took tens of milliseconds there.
    public static func canonicalJSON(_ players: [Player]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(2 + players.count * 96)
        out.append(UInt8(ascii: "["))
        for (i, p) in players.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: userIdKey)
            appendInteger(p.userId, to: &out)
            out.append(contentsOf: nameKey)
            JSONText.appendString(p.name, to: &out)
            out.append(contentsOf: usernameKey)
            JSONText.appendString(p.username, to: &out)
            out.append(contentsOf: regDateKey)
            appendDate(p.regDate, to: &out)
            out.append(contentsOf: p.isVoid ? voidTrue : voidFalse)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private static let userIdKey = Array(#"{"userId":"#.utf8)
    private static let nameKey = Array(#","name":"#.utf8)
    private static let usernameKey = Array(#","username":"#.utf8)
    private static let regDateKey = Array(#","regDate":""#.utf8)
    private static let voidTrue = Array(#"","void":true}"#.utf8)
    private static let voidFalse = Array(#"","void":false}"#.utf8)

    /// Decimal digits, as `String(n)` writes them.
    static func appendInteger(_ n: Int, to out: inout [UInt8]) {
        if n < 0 {
            out.append(UInt8(ascii: "-"))
            // `-Int.min` does not fit: its magnitude as unsigned.
            appendUnsigned(UInt(bitPattern: n).magnitudeOfNegative, to: &out)
        } else {
            appendUnsigned(UInt(n), to: &out)
        }
    }

    private static func appendUnsigned(_ n: UInt, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// `CalendarDate.description` (`yyyy-MM-dd`) as bytes.
    private static func appendDate(_ d: CalendarDate, to out: inout [UInt8]) {
        if (0...9999).contains(d.year), (1...12).contains(d.month), (1...31).contains(d.day) {
            let zero = UInt8(ascii: "0")
            out.append(contentsOf: [zero + UInt8(d.year / 1000), zero + UInt8(d.year / 100 % 10),
                                    zero + UInt8(d.year / 10 % 10), zero + UInt8(d.year % 10), UInt8(ascii: "-"),
                                    zero + UInt8(d.month / 10), zero + UInt8(d.month % 10), UInt8(ascii: "-"),
                                    zero + UInt8(d.day / 10), zero + UInt8(d.day % 10)])
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// Hex SHA-256 of `canonicalJSON(players)`.
    public static func hash(_ players: [Player]) -> String {
        Hex.encode(SHA256.hash(data: canonicalJSON(players)))
    }

}

private extension UInt {
    /// The magnitude of a negative `Int` given as its bit pattern.
    var magnitudeOfNegative: UInt { ~self &+ 1 }
}
