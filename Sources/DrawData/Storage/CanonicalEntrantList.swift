import DrawCore

/// A list's canonical bytes (`EntrantsEncoding.canonicalJSON`, exactly) in one buffer sized
/// once, and their hash, for storing a large list at the cost of one copy of it.
///
/// Why not `EntrantsEncoding.canonicalJSON` alone (issue 31): it reserves 96 bytes a player, so
/// a list with longer names (100,000 of `{"userId":100000,"name":"Entrant 100000",…}`, 101
/// bytes each) outgrows it and is copied into a buffer twice its size: about 20 MB touched for
/// 10 MB of list, on top of which SQLite makes its record. Here the size is counted first and
/// the bytes are `canonicalJSON`'s own, a chunk of players at a time, so they stay exactly the
/// bytes the hash commits to.
enum CanonicalEntrantList {
    /// Players encoded per call of `EntrantsEncoding` (about 400 KB of bytes at a time).
    static let chunk = 4096

    /// The canonical bytes of `players`.
    static func bytes(_ players: [Player]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(expectedCount(players))
        out.append(UInt8(ascii: "["))
        var start = 0
        while start < players.count {
            let end = min(start + chunk, players.count)
            let part = EntrantsEncoding.canonicalJSON(Array(players[start..<end]))
            // `[a,b]` of this chunk: its elements after a comma, without the brackets.
            if start > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: part[1..<(part.count - 1)])
            start = end
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// At least the byte count of `bytes(players)` when no name needs escaping, and at most one
    /// byte a player more (a void entry's `true` is a byte shorter than `false`); a name that
    /// needs escaping takes more, and the buffer then grows, as it always did. Each object's
    /// fixed text, its id's digits and its names' UTF-8 bytes (`utf8.count` is constant time for
    /// native strings).
    static func expectedCount(_ players: [Player]) -> Int {
        // `{"userId":` `,"name":"` `","username":"` `","regDate":"` yyyy-MM-dd `","void":false}`
        // and a comma before each object (one too many).
        let fixed = 10 + 9 + 14 + 13 + 10 + 15 + 1
        var total = 2
        for p in players {
            total += fixed + decimalDigits(p.userId) + p.name.utf8.count + p.username.utf8.count
        }
        return total
    }

    private static func decimalDigits(_ n: Int) -> Int {
        var digits = n < 0 ? 2 : 1
        var rest = n.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}
