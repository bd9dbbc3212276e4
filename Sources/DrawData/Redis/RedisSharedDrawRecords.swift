import DrawCore

/// `SharedDrawRecords` on Redis: the record as a string (`drawKey`, in `RedisStoredRecord`'s
/// form: without its entrant list, which it references by hash), the room's draws in a sorted
/// set scored by their history position (`historyKey`, positions from one `INCR` counter), and
/// their history lines in a hash (`historyLinesKey`). Keeping and paging are one script each, so
/// a page never sees a draw's position without its line. Each draw's
/// entrants are a string too (`entrantsKey`) holding the hash of its list, which is kept once,
/// for every draw of it, under that hash (`entrantListKey`): a room drawing one unchanged list
/// adds a hash a draw, not the list again. With the cluster's secret the record and the history
/// lines are kept sealed (`StoredSeal`: the record bound to its key, a line to its draw), and
/// one whose seal is wrong is refused: a record reads as unavailable, a line is left out.
public struct RedisSharedDrawRecords: SharedDrawRecords {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace
    public let seal: StoredSeal
    /// How long an ended draw stays, and how many lines a room keeps (issue 44).
    public let retention: HistoryRetention

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace(), seal: StoredSeal = .plain,
                retention: HistoryRetention = .standard) {
        self.connection = connection
        self.keyspace = keyspace
        self.seal = seal
        self.retention = retention
    }

    /// KEYS: history, lines, draw, sequence, the draw's end claim, the draw's entrants, its list,
    /// the room's seed escrow, the room's ends (`historyEndsKey`), the ends stream, its counter.
    /// ARGV: drawId,
    /// summary, record (as stored: `storedRecord`), token (decimal), final
    /// (`1`/`0`), the list's hash (empty: a record kept whole), the list's JSON (empty: not sent),
    /// its length (so a list kept under the hash is checked, cheaply, even when not sent), the
    /// retention window (ms), the most lines a room keeps, the room.
    ///
    /// Retention (issue 44, `HistoryRetention`): an end is added to the room's ends (scored by
    /// Redis' clock) and to the ends stream (trimmed to the window) with its position, so a node
    /// archives it in its place even once the room's cap let its line go; and its record, entrants'
    /// reference and end claim expire after the window; its list expires no sooner than the
    /// newest draw referencing it. Each end lets go of up to 100 of the room's lines that ended
    /// before the window or are past the room's cap (bounded work per call), and sets the room's
    /// history keys to expire after the window, so a room that stops drawing leaves nothing. A
    /// draw that is not ended yet makes its room's history keys persist again, so its line
    /// cannot expire under it.
    /// Answers 1 when kept, 0 when refused (`SharedDrawRecords.keep` has the rules): an end is
    /// claimed by the first final write and only the same non-zero token writes after it; a line
    /// already kept byte for byte is answered 1 without a write (a retry whose answer was lost).
    /// Answers 2, writing nothing, when the record references a list Redis does not hold and its
    /// JSON was not sent (the caller sends it then: a list goes over the wire once, not with every
    /// step of every draw of it). A list is refused (an error reply) when its hash already names
    /// other bytes. A draw keeps the position its first keep gave it; later keeps replace its line
    /// and record. One script, so a record never references a list Redis does not hold. Answers 3,
    /// writing nothing, for an unclaimed end of the draw the room's escrow still holds: the end
    /// must first be claimed by a fenced entry, which publishes it (the draw's own end, or a
    /// takeover's), so the history never records an end no viewer was shown (issue 36).
    static let keepScript = """
        local claim = redis.call('GET', KEYS[5])
        if claim then
          if ARGV[5] ~= '1' or ARGV[4] == '0' or claim ~= ARGV[4] then
            if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then return 1 end
            return 0
          end
        elseif ARGV[5] == '1' and redis.call('HGET', KEYS[8], 'drawId') == ARGV[1] then
          return 3
        end
        if ARGV[6] ~= '' then
          local list = redis.call('GET', KEYS[7])
          if not list then
            if ARGV[7] == '' then return 2 end
            redis.call('SET', KEYS[7], ARGV[7])
          elseif (ARGV[7] ~= '' and list ~= ARGV[7]) or string.len(list) ~= tonumber(ARGV[8]) then
            return redis.error_reply('entrant list ' .. ARGV[6] .. ' already stored with different bytes; refused')
          end
          redis.call('SET', KEYS[6], ARGV[6], 'NX')
        end
        if not claim and ARGV[5] == '1' then
          redis.call('SET', KEYS[5], ARGV[4])
        end
        if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
          redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[4]), ARGV[1])
        end
        redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
        redis.call('SET', KEYS[3], ARGV[3])
        if ARGV[5] ~= '1' then
          for _, k in ipairs({KEYS[1], KEYS[2], KEYS[9]}) do redis.call('PERSIST', k) end
          if ARGV[6] ~= '' then redis.call('PERSIST', KEYS[7]) end
          return 1
        end
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local window = tonumber(ARGV[9])
        if not redis.call('ZSCORE', KEYS[9], ARGV[1]) then
          redis.call('ZADD', KEYS[9], now, ARGV[1])
          redis.call('XADD', KEYS[10], 'MINID', tostring(now - window), '*', 'd', ARGV[1], 'r', ARGV[11],
                     'n', redis.call('INCR', KEYS[11]), 'p', redis.call('ZSCORE', KEYS[1], ARGV[1]))
        end
        local gone = redis.call('ZRANGEBYSCORE', KEYS[9], '-inf', '(' .. tostring(now - window), 'LIMIT', 0, 100)
        local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[10])
        if excess > 0 then
          for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, math.min(excess, 100) - 1)) do gone[#gone + 1] = id end
        end
        for _, id in ipairs(gone) do
          redis.call('ZREM', KEYS[1], id)
          redis.call('HDEL', KEYS[2], id)
          redis.call('ZREM', KEYS[9], id)
        end
        for _, k in ipairs({KEYS[3], KEYS[5], KEYS[6], KEYS[1], KEYS[2], KEYS[9]}) do redis.call('PEXPIRE', k, window) end
        if ARGV[6] ~= '' and redis.call('PTTL', KEYS[7]) < window then redis.call('PEXPIRE', KEYS[7], window) end
        return 1
        """

    /// KEYS: draws' record keys. Answers the (1-based) positions of those that do not exist.
    static let missingScript = """
        local out = {}
        for i = 1, #KEYS do
          if redis.call('EXISTS', KEYS[i]) == 0 then out[#out + 1] = i end
        end
        return out
        """

    /// Draw ids asked about per `missing` script, so one script never blocks Redis for long.
    static let missingBatch = 500

    /// KEYS: history, lines. ARGV: the score bound (`(N` below a cursor, `+inf` for the first
    /// page), how many to read. Answers [count of the room's draws, position, drawId, line,
    /// position, drawId, line, ...], newest first (the id: what a sealed line is bound to).
    static let pageScript = """
        local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
        local out = {redis.call('ZCARD', KEYS[1])}
        for i = 1, #ids, 2 do
          out[#out + 1] = ids[i + 1]
          out[#out + 1] = ids[i]
          out[#out + 1] = redis.call('HGET', KEYS[2], ids[i]) or ''
        end
        return out
        """

    @discardableResult
    public func keep(drawId: String, room: String, summary: [UInt8], body: SharedRecordBody, token: UInt64,
                     final: Bool) throws(CoordinationError) -> SharedKeepOutcome {
        let stored = seal.seal(RedisStoredRecord.encode(body), key: keyspace.drawKey(drawId: drawId))
        let lines = keyspace.historyLinesKey(room: room)
        // Sealed for its draw: the script's "already kept byte for byte" still holds (HMAC is
        // deterministic), and a line moved to another draw's field is refused when read.
        let summary = seal.seal(summary, key: lines, field: drawId)
        // First without the list, which Redis holds already once any draw of it started (the
        // `started` event kept it); with it only when Redis says it has not.
        for sendList in [false, true] {
            let reply = try connection.coordinate([
                Array("EVAL".utf8), Array(Self.keepScript.utf8), Array("11".utf8),
                Array(keyspace.historyKey(room: room).utf8), Array(lines.utf8),
                Array(keyspace.drawKey(drawId: drawId).utf8), Array(keyspace.historySequenceKey.utf8),
                Array(keyspace.drawEndKey(drawId: drawId).utf8), Array(keyspace.entrantsKey(drawId: drawId).utf8),
                Array(keyspace.entrantListKey(hash: body.entrants?.hash ?? "").utf8),
                Array(keyspace.escrowKey(room: room).utf8), Array(keyspace.historyEndsKey(room: room).utf8),
                Array(keyspace.endsKey.utf8), Array(keyspace.endsSequenceKey.utf8),
                Array(drawId.utf8), summary, stored, Array(String(token).utf8), Array((final ? "1" : "0").utf8),
                Array((body.entrants?.hash ?? "").utf8), sendList ? body.entrants?.json ?? [] : [],
                Array(String(body.entrants?.json.count ?? 0).utf8),
                Array(String(retention.windowMs).utf8), Array(String(retention.perRoom).utf8), Array(room.utf8),
            ])
            switch reply {
            case .integer(1): return .kept
            case .integer(0): return .refused
            case .integer(3): return .held
            case .integer(2) where !sendList && body.entrants != nil: continue
            default: throw .unexpectedReply("keeping draw \(drawId) answered \(reply)")
            }
        }
        throw .unexpectedReply("keeping draw \(drawId): its entrant list was sent and is still missing")
    }

    public func missing(drawIds: [String]) throws(CoordinationError) -> [String] {
        var missing: [String] = []
        var start = 0
        while start < drawIds.count {
            let batch = Array(drawIds[start..<min(start + Self.missingBatch, drawIds.count)])
            start += batch.count
            let reply = try connection.coordinate(["EVAL", Self.missingScript, String(batch.count)]
                                                  + batch.map { keyspace.drawKey(drawId: $0) }, idempotent: true)
            missing += try Self.missing(from: reply, batch: batch)
        }
        return missing
    }

    /// The draws of `batch` that `missingScript`'s `reply` names by (1-based) position. A
    /// position outside the batch (any integer Redis or whoever answers in its place sends) is
    /// an unexpected reply, checked before any arithmetic so `Int64.min` cannot trap it.
    static func missing(from reply: RedisReply, batch: [String]) throws(CoordinationError) -> [String] {
        guard case .array(let positions) = reply else { throw .unexpectedReply("asking for missing draws answered \(reply)") }
        return try positions.map { (position: RedisReply) throws(CoordinationError) -> String in
            guard case .integer(let i) = position, i >= 1, i <= batch.count else {
                throw .unexpectedReply("asking for missing draws answered \(position)")
            }
            return batch[Int(i) - 1]
        }
    }

    /// KEYS: the draw's entrants, the list. ARGV: hash, JSON. Stores the list unless kept (a
    /// running draw references it: it no longer expires until that draw's end sets it to), and
    /// refuses (an error reply) a hash already naming different bytes rather than let one draw
    /// read another's list; then the draw references the hash. One script, so a reference never
    /// exists without its list.
    static let keepEntrantsScript = """
        local kept = redis.call('GET', KEYS[2])
        if not kept then
          redis.call('SET', KEYS[2], ARGV[2])
        elseif kept ~= ARGV[2] then
          return redis.error_reply('entrant list ' .. ARGV[1] .. ' already stored with different bytes; refused')
        end
        redis.call('PERSIST', KEYS[2])
        redis.call('SET', KEYS[1], ARGV[1])
        return 1
        """

    public func keepEntrants(drawId: String, _ list: SharedEntrantList) throws(CoordinationError) {
        // The JSON goes along every time, so the script can compare it: a hash alone would have
        // to be trusted to name these bytes.
        _ = try connection.coordinate([
            Array("EVAL".utf8), Array(Self.keepEntrantsScript.utf8), Array("2".utf8),
            Array(keyspace.entrantsKey(drawId: drawId).utf8), Array(keyspace.entrantListKey(hash: list.hash).utf8),
            Array(list.hash.utf8), list.json,
        ])
    }

    public func entrants(drawId: String) throws(CoordinationError) -> SharedEntrantList? {
        guard let reference = try string(at: keyspace.entrantsKey(drawId: drawId)) else { return nil }
        // Kept before issue 31: the hash, a newline, the list, all in the draw's own key.
        if let newline = reference.firstIndex(of: UInt8(ascii: "\n")) {
            return SharedEntrantList(hash: String(decoding: reference[..<newline], as: UTF8.self),
                                     json: Array(reference[(newline + 1)...]))
        }
        let hash = String(decoding: reference, as: UTF8.self)
        // Two reads, not a script: a list's key is only known once the first answer names it.
        guard let json = try string(at: keyspace.entrantListKey(hash: hash)) else {
            throw .unexpectedReply("draw \(drawId) references entrant list \(hash), which is missing")
        }
        return SharedEntrantList(hash: hash, json: json)
    }

    /// The string at `key`, or `nil` when there is none.
    func string(at key: String) throws(CoordinationError) -> [UInt8]? {
        switch try connection.coordinate(["GET", key], idempotent: true) {
        case .null: return nil
        case .string(let bytes): return bytes
        case let other: throw .unexpectedReply("GET answered \(other)")
        }
    }

    /// The record with its list put back in (the list read by the hash the record references);
    /// a record kept whole, or before issue 44 with its list inside, as it was kept.
    /// A record whose seal is wrong is an error (the history answers 503), never served.
    public func body(drawId: String) throws(CoordinationError) -> [UInt8]? {
        let key = keyspace.drawKey(drawId: drawId)
        guard let sealed = try string(at: key) else { return nil }
        guard let stored = seal.open(sealed, key: key, kind: .record) else {
            throw .unexpectedReply("draw \(drawId)'s record in Redis does not carry the cluster's seal; refused")
        }
        guard let record = RedisStoredRecord.decode(stored) else {
            throw .unexpectedReply("draw \(drawId)'s record in Redis is not one live-draw wrote")
        }
        guard let hash = record.hash else { return record.head }
        guard let json = try string(at: keyspace.entrantListKey(hash: hash)) else {
            throw .unexpectedReply("draw \(drawId)'s record references entrant list \(hash), which is missing")
        }
        return SharedRecordBody(head: record.head, tail: record.tail,
                                entrants: SharedEntrantList(hash: hash, json: json)).whole
    }

    public func page(room: String, request: DrawPageRequest) throws(CoordinationError) -> SharedDrawPage {
        let bound = request.after.map { "(\($0.position)" } ?? "+inf"
        // One more than asked tells whether another page follows.
        let reply = try connection.coordinate(["EVAL", Self.pageScript, "2", keyspace.historyKey(room: room),
                                               keyspace.historyLinesKey(room: room), bound, String(request.limit + 1)],
                                               idempotent: true)
        let lines = keyspace.historyLinesKey(room: room)
        return try Self.page(from: reply, limit: request.limit) { line, drawId in
            seal.open(line, key: lines, field: drawId, kind: .historyLine)
        }
    }

    /// The page `pageScript`'s `reply` holds, asked with `limit`. Every position must be a
    /// whole, positive number (`INCR` made it); any other score is an unexpected reply, not a
    /// cursor that traps or pages backwards. Each line goes through `open` (with its draw's id):
    /// one it refuses (a wrong seal) is left out, as a missing line is.
    static func page(from reply: RedisReply, limit: Int,
                     open: (_ line: [UInt8], _ drawId: String) -> [UInt8]? = { line, _ in line })
        throws(CoordinationError) -> SharedDrawPage {
        guard case .array(let parts) = reply, case .integer(let total)? = parts.first, parts.count % 3 == 1 else {
            throw .unexpectedReply("the history page answered \(reply)")
        }
        var rows: [(position: Int64, line: [UInt8])] = []
        for i in stride(from: 1, to: parts.count, by: 3) {
            // Scores come back as text; positions are whole numbers well inside a double's range.
            guard let text = parts[i].text, let score = Double(text), let position = Int64(exactly: score), position > 0,
                  let drawId = parts[i + 1].text, case .string(let sealed) = parts[i + 2] else {
                throw .unexpectedReply("the history page held \(parts[i]) / \(parts[i + 1]) / \(parts[i + 2])")
            }
            if !sealed.isEmpty, let line = open(sealed, drawId) { rows.append((position, line)) }
        }
        let more = rows.count > limit
        let shown = rows.prefix(limit)
        return SharedDrawPage(summaries: shown.map(\.line), positions: shown.map(\.position),
                              next: more ? shown.last.flatMap { DrawCursor(position: $0.position) } : nil,
                              roomHasDraws: total > 0)
    }
}
