import DrawCore

/// A host's plain-text entrant list, one name per line, mapped to the players of a draw.
///
/// The rules (each one a test in `PlainTextEntrantListTests`):
/// - the body must be UTF-8 (a leading byte-order mark is dropped); lines end with LF, CRLF or CR;
/// - white space around a name is dropped, and blank lines are skipped;
/// - entrants get the ids 1, 2, 3… in line order; none is void; the username is empty and the
///   registration day is the one the caller gives (the day of the upload);
/// - a name listed again is entered again (two people may share a name), with one
///   `duplicateName` warning per repeated name, at its first repeat; names compare as Swift
///   strings: case matters, canonically equivalent Unicode does not;
/// - every `EntrantListLimits` limit is checked, and the first one broken refuses the whole list.
public enum PlainTextEntrantList {
    /// - Throws: `bodyTooLarge`, `notUTF8`, `tooManyEntrants`, `nameTooLong`, `nameTooManyBytes`,
    ///   or `noEntrants` when no line has a name. Nothing partial is ever returned.
    ///
    /// Memory (issue 31): the body is consumed and let go of once it is text; the players are
    /// counted first so that their array is sized once (doubling it as it fills held 1.5x its
    /// size, about 14 MiB at 100,000); repeated names are found by sorting, not in a table
    /// keyed by name (10 MiB at 100,000; `duplicateNames`).
    public static func parse(_ body: consuming [UInt8], limits: EntrantListLimits,
                             registeredOn: CalendarDate) throws(EntrantListError) -> MergeResult {
        guard body.count <= limits.maxBodyBytes else {
            throw .bodyTooLarge(list: "plain-text list", limitBytes: limits.maxBodyBytes)
        }
        var text = try Self.text(of: body)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }

        // Counted up to one past the limit: a longer list is refused below, at that entrant.
        var count = 0
        forEachName(in: text) { _, _ in
            count += 1
            return count <= limits.maxEntrants
        }
        var players: [Player] = []
        players.reserveCapacity(count)
        var broken: EntrantListError?
        forEachName(in: text) { name, lineNumber in
            let id = players.count + 1
            do throws(EntrantListError) {
                try limits.check(entrantCount: id)
                try limits.check(name: name, at: .line(lineNumber))
            } catch {
                broken = error
                return false
            }
            players.append(Player(userId: id, name: String(name), username: "", regDate: registeredOn, isVoid: false))
            return true
        }
        if let broken { throw broken }
        guard !players.isEmpty else { throw .noEntrants(warnings: []) }
        return MergeResult(players: players, warnings: duplicateNames(in: players))
    }

    /// The body as text; the bytes go when it returns.
    private static func text(of body: consuming [UInt8]) throws(EntrantListError) -> String {
        guard let text = String(validating: copy body, as: UTF8.self) else {
            throw .notUTF8(byteOffset: UTF8Offset.firstInvalid(in: body) ?? 0)
        }
        return text
    }

    /// Calls `body` with each line's name (trimmed, not blank) and its line number, in order,
    /// until it returns `false`.
    ///
    /// One walk over the characters, a line at a time, nothing kept: a body of 16 MiB of line
    /// breaks is 16 million empty lines, which `split` would first have made into an array of
    /// 16 million substrings (about 0.5 GB). "\r\n" is one Character in Swift, so CRLF is one
    /// line break, like LF and a lone CR.
    private static func forEachName(in text: String, _ body: (Substring, Int) -> Bool) {
        var lineNumber = 0
        var lineStart = text.startIndex
        while true {
            var lineEnd = lineStart
            while lineEnd < text.endIndex, !text[lineEnd].isNewline { text.formIndex(after: &lineEnd) }
            lineNumber += 1
            let name = text[lineStart..<lineEnd].trimmingWhiteSpace()
            if !name.isEmpty, !body(name, lineNumber) { return }
            guard lineEnd < text.endIndex else { return }
            lineStart = text.index(after: lineEnd)
        }
    }

    /// One `duplicateName` warning per name listed more than once, at its first repeat (naming
    /// its first entrant), in list order. Names compare as Swift strings (canonically equivalent
    /// spellings are one name).
    ///
    /// By sorting, not with a table keyed by name: the entrants are sorted by their name's hash,
    /// then by position, so each name's entrants are side by side, its first first (equal names
    /// have equal hashes: `Hashable`'s contract); names whose hashes merely collide are told
    /// apart with `==` within their run. Not by sorting on `<`: Swift's order of strings does
    /// not keep canonically equivalent spellings together ("Be\u{301}a1" < "B\u{E9}a12" is
    /// false while "B\u{E9}a1" < "B\u{E9}a12" is true), which a test of this found.
    static func duplicateNames(in players: [Player]) -> [MergeWarning] {
        let hashes = players.map(\.name.hashValue)
        var order = [Int32](0..<Int32(players.count))
        order.sort { a, b in
            let x = hashes[Int(a)], y = hashes[Int(b)]
            return x == y ? a < b : x < y
        }
        var warnings: [MergeWarning] = []
        var i = 0
        while i < order.count {
            var j = i + 1
            while j < order.count, hashes[Int(order[j])] == hashes[Int(order[i])] { j += 1 }
            // One run of equal hashes, in list order: almost always one name.
            var firsts: [(index: Int, warned: Bool)] = []
            for k in i..<j {
                let index = Int(order[k])
                guard let f = firsts.firstIndex(where: { players[$0.index].name == players[index].name }) else {
                    firsts.append((index, false))
                    continue
                }
                if !firsts[f].warned {
                    firsts[f].warned = true
                    warnings.append(.duplicateName(userId: players[index].userId, firstUserId: players[firsts[f].index].userId))
                }
            }
            i = j
        }
        warnings.sort { $0.userId < $1.userId }
        return warnings
    }
}

extension Substring {
    /// Without the white space (Unicode's, as `Character.isWhitespace` says) at either end.
    func trimmingWhiteSpace() -> Substring {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace }) else { return self[endIndex...] }
        return self[start...last]
    }
}
