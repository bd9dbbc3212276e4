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
    public static func parse(_ body: [UInt8], limits: EntrantListLimits,
                             registeredOn: CalendarDate) throws(EntrantListError) -> MergeResult {
        guard body.count <= limits.maxBodyBytes else {
            throw .bodyTooLarge(list: "plain-text list", limitBytes: limits.maxBodyBytes)
        }
        guard var text = String(validating: body, as: UTF8.self) else {
            throw .notUTF8(byteOffset: UTF8Offset.firstInvalid(in: body) ?? 0)
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }

        var players: [Player] = []
        var warnings: [MergeWarning] = []
        var firstIdByName: [Substring: Int] = [:]
        var warnedNames = Set<Substring>()
        // One walk over the characters, a line at a time, nothing kept but the entrants: a body of
        // 16 MiB of line breaks is 16 million empty lines, which `split` would first have made
        // into an array of 16 million substrings (about 0.5 GB). "\r\n" is one Character in
        // Swift, so CRLF is one line break, like LF and a lone CR.
        var lineNumber = 0
        var lineStart = text.startIndex
        while true {
            var lineEnd = lineStart
            while lineEnd < text.endIndex, !text[lineEnd].isNewline { text.formIndex(after: &lineEnd) }
            lineNumber += 1
            let name = text[lineStart..<lineEnd].trimmingWhiteSpace()
            if !name.isEmpty {
                let id = players.count + 1
                try limits.check(entrantCount: id)
                try limits.check(name: name, at: .line(lineNumber))
                if let first = firstIdByName[name] {
                    if warnedNames.insert(name).inserted { warnings.append(.duplicateName(userId: id, firstUserId: first)) }
                } else {
                    firstIdByName[name] = id
                }
                players.append(Player(userId: id, name: String(name), username: "", regDate: registeredOn, isVoid: false))
            }
            guard lineEnd < text.endIndex else { break }
            lineStart = text.index(after: lineEnd)
        }
        guard !players.isEmpty else { throw .noEntrants(warnings: []) }
        return MergeResult(players: players, warnings: warnings)
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
