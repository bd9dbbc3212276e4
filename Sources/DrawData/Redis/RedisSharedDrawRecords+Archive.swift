import DrawCore

/// What a node reads to archive the cluster's ended draws (issue 44, `DrawArchive`): the ends
/// stream (`RedisKeyspace.endsKey`), each entry with the draw's position and history line, then
/// the draw's record.
extension RedisSharedDrawRecords {
    /// KEYS: the ends stream. ARGV: the range's start (`-`, or `(<id>` after a cursor), how many.
    /// Answers [id, draw, room, number, position] for each end ('' for a missing field).
    static let endsScript = """
        local out = {}
        for _, entry in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', tonumber(ARGV[2]))) do
          local f, fields = {d = '', r = '', n = '', p = ''}, entry[2]
          for i = 1, #fields, 2 do
            if f[fields[i]] then f[fields[i]] = fields[i + 1] end
          end
          out[#out + 1] = entry[1]
          out[#out + 1] = f.d
          out[#out + 1] = f.r
          out[#out + 1] = f.n
          out[#out + 1] = f.p
        end
        return out
        """

    /// KEYS: the room's lines, the draw's record. ARGV: drawId. Answers [line, record], each ''
    /// when missing.
    static let archivableScript = """
        return {redis.call('HGET', KEYS[1], ARGV[1]) or '', redis.call('GET', KEYS[2]) or ''}
        """

    public func ends(after cursor: String?, limit: Int) throws(CoordinationError) -> SharedEndsPage {
        let read = cursor.flatMap(EndsCursor.init)
        let start = read.map { "(\($0.id.text)" } ?? "-"
        let reply = try connection.coordinate(["EVAL", Self.endsScript, "1", keyspace.endsKey, start, String(max(1, limit))],
                                              idempotent: true)
        return try Self.ends(from: reply, after: cursor)
    }

    /// The page `endsScript`'s `reply` holds, read after `cursor`. An id that is not a stream id
    /// is an unexpected reply; an entry that names no valid draw, room and position names no
    /// draw (`SharedEnd.isDraw`), and the cursor still moves past it. A gap: the first end's
    /// number is past the one after the cursor's (the window trimmed ends this node had not read).
    static func ends(from reply: RedisReply, after cursor: String?) throws(CoordinationError) -> SharedEndsPage {
        guard case .array(let parts) = reply, parts.count % 5 == 0 else {
            throw .unexpectedReply("reading the ended draws answered \(reply)")
        }
        var ends: [SharedEnd] = []
        var firstNumber: UInt64?
        for i in stride(from: 0, to: parts.count, by: 5) {
            guard let text = parts[i].text, let id = StreamID(text) else {
                throw .unexpectedReply("the ended draws held the stream id \(parts[i])")
            }
            let number = parts[i + 3].text.flatMap { UInt64($0) }
            if i == 0 { firstNumber = number }
            let next = EndsCursor(id: id, number: number).text
            guard let draw = parts[i + 1].text, DrawIdentifier.isValid(draw),
                  let room = parts[i + 2].text, !room.isEmpty, room.utf8.count <= 256,
                  let position = parts[i + 4].text.flatMap({ Int64($0) }), position > 0 else {
                ends.append(SharedEnd(cursor: next, drawId: "", room: "", position: 0))
                continue
            }
            ends.append(SharedEnd(cursor: next, drawId: draw, room: room, position: position))
        }
        var gap = false
        if let read = cursor.flatMap(EndsCursor.init), let last = read.number, let first = firstNumber {
            gap = last < UInt64.max && first > last + 1
        }
        return SharedEndsPage(ends: ends, gap: gap)
    }

    public func archivable(_ end: SharedEnd) throws(CoordinationError) -> ArchivedDraw? {
        guard end.isDraw else { return nil }
        let lines = keyspace.historyLinesKey(room: end.room), recordKey = keyspace.drawKey(drawId: end.drawId)
        let reply = try connection.coordinate(["EVAL", Self.archivableScript, "2", lines, recordKey, end.drawId],
                                              idempotent: true)
        guard case .array(let parts) = reply, parts.count == 2, case .string(let sealedLine) = parts[0],
              case .string(let sealed) = parts[1] else {
            throw .unexpectedReply("reading draw \(end.drawId) to archive answered \(reply)")
        }
        guard !sealed.isEmpty else { return nil }
        guard let stored = seal.open(sealed, key: recordKey, kind: .record) else {
            throw .unexpectedReply("draw \(end.drawId)'s record in Redis does not carry the cluster's seal; refused")
        }
        guard let record = RedisStoredRecord.decode(stored) else {
            throw .unexpectedReply("draw \(end.drawId)'s record in Redis is not one live-draw wrote")
        }
        // A line whose seal is wrong is left out, as the history page leaves it out: the caller
        // makes the line from the record.
        let line = sealedLine.isEmpty ? [] : seal.open(sealedLine, key: lines, field: end.drawId, kind: .historyLine) ?? []
        var list: SharedEntrantList?
        if let hash = record.hash {
            guard let json = try string(at: keyspace.entrantListKey(hash: hash)) else { return nil }
            list = SharedEntrantList(hash: hash, json: json)
        }
        return ArchivedDraw(drawId: end.drawId, room: end.room, position: end.position, summary: line,
                            body: SharedRecordBody(head: record.head, tail: record.tail, entrants: list))
    }
}

/// Where a reader of the ends stream is: the last entry's id and its number (`n`), as text
/// `<id> <number>` (the number left out when the entry had none).
struct EndsCursor {
    let id: StreamID
    let number: UInt64?

    init(id: StreamID, number: UInt64?) {
        self.id = id
        self.number = number
    }

    init?(_ text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let id = StreamID(String(parts[0])) else { return nil }
        self.id = id
        number = parts.count == 2 ? UInt64(parts[1]) : nil
    }

    var text: String { number.map { "\(id.text) \($0)" } ?? id.text }
}

/// A Redis stream entry id, `<ms>-<seq>`, ordered as Redis orders them.
struct StreamID: Comparable {
    let ms: UInt64
    let seq: UInt64

    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let ms = UInt64(parts[0]), let seq = UInt64(parts[1]) else { return nil }
        self.ms = ms
        self.seq = seq
    }

    var text: String { "\(ms)-\(seq)" }

    static func < (a: StreamID, b: StreamID) -> Bool { (a.ms, a.seq) < (b.ms, b.seq) }
}
