import DrawCore

/// `SharedDrawRecords` on Redis: the body as a string (`drawKey`), the room's draws in a sorted
/// set scored by their history position (`historyKey`, positions from one `INCR` counter), and
/// their history lines in a hash (`historyLinesKey`). Keeping and paging are one script each, so
/// a page never sees a draw's position without its line. Each draw's
/// entrants are a string too (`entrantsKey`).
public struct RedisSharedDrawRecords: SharedDrawRecords {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    /// KEYS: history, lines, draw, sequence. ARGV: drawId, summary, body. A draw keeps the
    /// position its first keep gave it; later keeps replace its line and body.
    static let keepScript = """
        if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
          redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[4]), ARGV[1])
        end
        redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
        redis.call('SET', KEYS[3], ARGV[3])
        return 1
        """

    /// KEYS: history, lines. ARGV: the score bound (`(N` below a cursor, `+inf` for the first
    /// page), how many to read. Answers [count of the room's draws, position, line, position,
    /// line, ...], newest first.
    static let pageScript = """
        local ids = redis.call('ZREVRANGEBYSCORE', KEYS[1], ARGV[1], '-inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
        local out = {redis.call('ZCARD', KEYS[1])}
        for i = 1, #ids, 2 do
          out[#out + 1] = ids[i + 1]
          out[#out + 1] = redis.call('HGET', KEYS[2], ids[i]) or ''
        end
        return out
        """

    public func keep(drawId: String, room: String, summary: [UInt8], body: [UInt8]) throws(CoordinationError) {
        _ = try connection.coordinate([
            Array("EVAL".utf8), Array(Self.keepScript.utf8), Array("4".utf8),
            Array(keyspace.historyKey(room: room).utf8), Array(keyspace.historyLinesKey(room: room).utf8),
            Array(keyspace.drawKey(drawId: drawId).utf8), Array(keyspace.historySequenceKey.utf8),
            Array(drawId.utf8), summary, body,
        ])
    }

    public func keepEntrants(drawId: String, _ list: SharedEntrantList) throws(CoordinationError) {
        _ = try connection.coordinate([Array("SET".utf8), Array(keyspace.entrantsKey(drawId: drawId).utf8),
                                       Array(list.hash.utf8) + [UInt8(ascii: "\n")] + list.json])
    }

    public func entrants(drawId: String) throws(CoordinationError) -> SharedEntrantList? {
        switch try connection.coordinate(["GET", keyspace.entrantsKey(drawId: drawId)]) {
        case .null: return nil
        case .string(let bytes):
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                throw .unexpectedReply("a draw's entrants without their hash")
            }
            return SharedEntrantList(hash: String(decoding: bytes[..<newline], as: UTF8.self),
                                     json: Array(bytes[(newline + 1)...]))
        case let other: throw .unexpectedReply("GET answered \(other)")
        }
    }

    public func body(drawId: String) throws(CoordinationError) -> [UInt8]? {
        switch try connection.coordinate(["GET", keyspace.drawKey(drawId: drawId)]) {
        case .null: return nil
        case .string(let bytes): return bytes
        case let other: throw .unexpectedReply("GET answered \(other)")
        }
    }

    public func page(room: String, request: DrawPageRequest) throws(CoordinationError) -> SharedDrawPage {
        let bound = request.after.map { "(\($0.position)" } ?? "+inf"
        // One more than asked tells whether another page follows.
        let reply = try connection.coordinate(["EVAL", Self.pageScript, "2", keyspace.historyKey(room: room),
                                               keyspace.historyLinesKey(room: room), bound, String(request.limit + 1)])
        guard case .array(let parts) = reply, case .integer(let total)? = parts.first, parts.count % 2 == 1 else {
            throw .unexpectedReply("the history page answered \(reply)")
        }
        var rows: [(position: Int64, line: [UInt8])] = []
        for i in stride(from: 1, to: parts.count, by: 2) {
            // Scores come back as text; positions are whole numbers well inside a double's range.
            guard let text = parts[i].text, let score = Double(text), let position = Int64(exactly: score),
                  case .string(let line) = parts[i + 1] else {
                throw .unexpectedReply("the history page held \(parts[i]) / \(parts[i + 1])")
            }
            if !line.isEmpty { rows.append((position, line)) }
        }
        let more = rows.count > request.limit
        let shown = rows.prefix(request.limit)
        return SharedDrawPage(summaries: shown.map(\.line),
                              next: more ? shown.last.flatMap { DrawCursor(position: $0.position) } : nil,
                              roomHasDraws: total > 0)
    }
}
