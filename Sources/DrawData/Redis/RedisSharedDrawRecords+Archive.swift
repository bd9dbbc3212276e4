import DrawCore

/// What a node reads to archive the cluster's ended draws (issue 44, `DrawArchive`): the ends
/// stream (`RedisKeyspace.endsKey`), then each draw's line, position and record.
extension RedisSharedDrawRecords {
    /// KEYS: the ends stream. ARGV: the range's start (`-`, or `(<id>` after a cursor), how many.
    /// Answers [id, draw, room, number] for each end.
    static let endsScript = """
        local out = {}
        for _, entry in ipairs(redis.call('XRANGE', KEYS[1], ARGV[1], '+', 'COUNT', tonumber(ARGV[2]))) do
          local fields, draw, room, n = entry[2], '', '', ''
          for i = 1, #fields, 2 do
            if fields[i] == 'd' then draw = fields[i + 1]
            elseif fields[i] == 'r' then room = fields[i + 1]
            elseif fields[i] == 'n' then n = fields[i + 1] end
          end
          out[#out + 1] = entry[1]
          out[#out + 1] = draw
          out[#out + 1] = room
          out[#out + 1] = n
        end
        return out
        """

    /// KEYS: lines, history, the draw's record. ARGV: drawId. Answers [line, position, record],
    /// each '' when missing.
    static let archivableScript = """
        return {redis.call('HGET', KEYS[1], ARGV[1]) or '', redis.call('ZSCORE', KEYS[2], ARGV[1]) or '',
                redis.call('GET', KEYS[3]) or ''}
        """

    public func ends(after cursor: String?, limit: Int) throws(CoordinationError) -> SharedEndsPage {
        let read = cursor.flatMap(EndsCursor.init)
        let start = read.map { "(\($0.id.text)" } ?? "-"
        let reply = try connection.coordinate(["EVAL", Self.endsScript, "1", keyspace.endsKey, start, String(max(1, limit))],
                                              idempotent: true)
        return try Self.ends(from: reply, after: cursor)
    }

    /// The page `endsScript`'s `reply` holds, read after `cursor`. An id that is not a stream id
    /// is an unexpected reply; an entry without a valid draw id or room is left out (whoever
    /// wrote it, it names no draw this node can read), and the cursor still moves past it. A gap:
    /// the first end's number is past the one after the cursor's (the window trimmed ends this
    /// node had not read).
    static func ends(from reply: RedisReply, after cursor: String?) throws(CoordinationError) -> SharedEndsPage {
        guard case .array(let parts) = reply, parts.count % 4 == 0 else {
            throw .unexpectedReply("reading the ended draws answered \(reply)")
        }
        var ends: [SharedEnd] = []
        var firstNumber: UInt64?
        for i in stride(from: 0, to: parts.count, by: 4) {
            guard let text = parts[i].text, let id = StreamID(text) else {
                throw .unexpectedReply("the ended draws held the stream id \(parts[i])")
            }
            let number = parts[i + 3].text.flatMap { UInt64($0) }
            if i == 0 { firstNumber = number }
            let next = EndsCursor(id: id, number: number).text
            guard let draw = parts[i + 1].text, DrawIdentifier.isValid(draw),
                  let room = parts[i + 2].text, !room.isEmpty, room.utf8.count <= 256 else {
                // Still moves the cursor: a later read starts past it.
                ends.append(SharedEnd(cursor: next, drawId: "", room: ""))
                continue
            }
            ends.append(SharedEnd(cursor: next, drawId: draw, room: room))
        }
        var gap = false
        if let read = cursor.flatMap(EndsCursor.init), let last = read.number, let first = firstNumber {
            gap = first > last &+ 1 && last < UInt64.max
        }
        return SharedEndsPage(ends: ends, gap: gap)
    }

    public func archivable(drawId: String, room: String) throws(CoordinationError) -> ArchivedDraw? {
        guard !drawId.isEmpty else { return nil }
        let lines = keyspace.historyLinesKey(room: room), recordKey = keyspace.drawKey(drawId: drawId)
        let reply = try connection.coordinate(["EVAL", Self.archivableScript, "3", lines, keyspace.historyKey(room: room),
                                               recordKey, drawId], idempotent: true)
        guard case .array(let parts) = reply, parts.count == 3, case .string(let sealedLine) = parts[0],
              case .string(let score) = parts[1], case .string(let sealedRecord) = parts[2] else {
            throw .unexpectedReply("reading draw \(drawId) to archive answered \(reply)")
        }
        guard !sealedLine.isEmpty, !sealedRecord.isEmpty else { return nil }
        guard let position = Double(String(decoding: score, as: UTF8.self)).flatMap({ Int64(exactly: $0) }), position > 0 else {
            throw .unexpectedReply("draw \(drawId)'s history position is \(parts[1])")
        }
        guard let line = seal.open(sealedLine, key: lines, field: drawId, kind: .historyLine) else {
            throw .unexpectedReply("draw \(drawId)'s history line in Redis does not carry the cluster's seal; refused")
        }
        guard let stored = seal.open(sealedRecord, key: recordKey, kind: .record) else {
            throw .unexpectedReply("draw \(drawId)'s record in Redis does not carry the cluster's seal; refused")
        }
        guard let record = RedisStoredRecord.decode(stored) else {
            throw .unexpectedReply("draw \(drawId)'s record in Redis is not one live-draw wrote")
        }
        var list: SharedEntrantList?
        if let hash = record.hash {
            guard let json = try string(at: keyspace.entrantListKey(hash: hash)) else { return nil }
            list = SharedEntrantList(hash: hash, json: json)
        }
        return ArchivedDraw(drawId: drawId, room: room, position: position, summary: line,
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
