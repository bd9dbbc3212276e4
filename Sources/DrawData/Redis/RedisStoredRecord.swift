import DrawCore

/// A draw's record as `RedisSharedDrawRecords` keeps it under `draw:<id>` (issue 44): without its
/// entrant list, which is kept once under its hash (`entrant-list:<hash>`), so the record's size
/// does not grow with the list.
///
/// The form: `entrants <hash> <offset>\n`, then the record's bytes without the list, which goes
/// back in at `offset`. A record without a list to share (a draw that failed before its plan), and
/// every record kept before issue 44 (its list inside), is the JSON body itself, which never
/// starts with the referencing form's `entrants `, so both read back.
enum RedisStoredRecord {
    /// What a stored record holds: the record's bytes before and after its list, and the list's
    /// hash (`nil`: `head` is the whole record).
    struct Parts: Equatable {
        let head: [UInt8]
        let tail: [UInt8]
        let hash: String?
    }

    private static let marker = Array("entrants ".utf8)

    /// The bytes to store for `body`.
    static func encode(_ body: SharedRecordBody) -> [UInt8] {
        guard let list = body.entrants else { return body.head + body.tail }
        var out = marker + Array("\(list.hash) \(body.head.count)\n".utf8)
        out.reserveCapacity(out.count + body.head.count + body.tail.count)
        out += body.head
        out += body.tail
        return out
    }

    /// The parts of a stored record, or `nil` when its reference is not one this code wrote: a
    /// bad hash, or an offset that is not a number inside the record.
    static func decode(_ stored: [UInt8]) -> Parts? {
        // A whole body, kept before issue 44 or without a list (a JSON object never starts so).
        guard stored.starts(with: marker) else { return Parts(head: stored, tail: [], hash: nil) }
        guard let newline = stored.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let header = stored[marker.count..<newline].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard header.count == 2, header[0].count == 64,
              header[0].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                                     || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }),
              header[1].count <= 18, header[1].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let offset = Int(String(decoding: header[1], as: UTF8.self)) else { return nil }
        let record = stored[(newline + 1)...]
        // `offset` is at most 18 digits, so the sum cannot overflow.
        guard offset <= record.count else { return nil }
        let split = record.startIndex + offset
        return Parts(head: Array(record[..<split]), tail: Array(record[split...]),
                     hash: String(decoding: header[0], as: UTF8.self))
    }
}
