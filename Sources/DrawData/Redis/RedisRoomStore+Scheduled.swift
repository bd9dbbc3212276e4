import DrawCore

/// Scheduled draws in cluster mode (issue 30): in Redis, so any node can start one whose
/// scheduling node died, and exactly one node does. Each draw is a string (`scheduledKey`, the
/// whole draw as JSON, `StoredJSON.scheduled`), indexed by its time (`scheduledIndexKey`) and by
/// its room (`scheduledRoomsKey`: one per room). Scheduling and claiming are one script each, so
/// two nodes cannot both claim a draw, nor schedule two in one room.
///
/// Time is Redis' (`TIME`), the one clock the nodes share: a claim at the draw's time is refused
/// before it by Redis' clock (a node whose clock runs 30 s ahead started every draw 30 s early,
/// issue 36), and nodes arm their timers by their offset to it (`clockOffsetMs`).
extension RedisRoomStore: ScheduledDrawStore {
    /// KEYS: rooms, index, draw. ARGV: room, drawId, at, json.
    static let scheduleScript = """
        if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
        redis.call('SET', KEYS[3], ARGV[4])
        return 1
        """
    /// KEYS: rooms, index, draw. ARGV: drawId, 'due' for a claim at the draw's time ('' for a
    /// cancel). Returns the draw's JSON to the one caller that takes it, nil to the others; for a
    /// claim at its time before that time by Redis' clock, the ms still to wait (an integer),
    /// taking nothing.
    static let claimScript = """
        local json = redis.call('GET', KEYS[3])
        if not json then return false end
        if ARGV[2] == 'due' then
          local at = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[1]))
          local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
          if at and now < at then return math.ceil(at - now) end
        end
        redis.call('DEL', KEYS[3])
        redis.call('ZREM', KEYS[2], ARGV[1])
        local room = cjson.decode(json).room
        if redis.call('HGET', KEYS[1], room) == ARGV[1] then redis.call('HDEL', KEYS[1], room) end
        return json
        """

    public func schedule(_ draw: ScheduledDraw) throws(StorageError) -> Bool {
        try flag(write("schedule a draw", ["EVAL", Self.scheduleScript, "3", keyspace.scheduledRoomsKey,
                                           keyspace.scheduledIndexKey, keyspace.scheduledKey(drawId: draw.drawId),
                                           draw.room, draw.drawId, Self.text(draw.at), StoredJSON.scheduled(draw)]),
                 "schedule a draw")
    }

    public func scheduledDraws() throws(StorageError) -> [ScheduledDraw] {
        let ids = try read("read the scheduled draws", ["ZRANGE", keyspace.scheduledIndexKey, "0", "-1"])
        guard case .array(let items) = ids else { throw failure(read: "read the scheduled draws", "ZRANGE answered \(ids)") }
        let keys = items.compactMap(\.text).map { keyspace.scheduledKey(drawId: $0) }
        guard !keys.isEmpty else { return [] }
        let values = try read("read the scheduled draws", ["MGET"] + keys)
        guard case .array(let texts) = values else { throw failure(read: "read the scheduled draws", "MGET answered \(values)") }
        // A draw claimed between the two reads is simply gone.
        return try texts.compactMap(\.text).map { (text: String) throws(StorageError) -> ScheduledDraw in
            try decoded(text, "read the scheduled draws")
        }
    }

    public func scheduledDraw(id drawId: String) throws(StorageError) -> ScheduledDraw? {
        let reply = try read("read a scheduled draw", ["GET", keyspace.scheduledKey(drawId: drawId)])
        return try reply.text.map { (text: String) throws(StorageError) -> ScheduledDraw in try decoded(text, "read a scheduled draw") }
    }

    public func claim(drawId: String) throws(StorageError) -> ScheduledDraw? {
        let reply = try write("claim a scheduled draw", ["EVAL", Self.claimScript, "3", keyspace.scheduledRoomsKey,
                                                         keyspace.scheduledIndexKey, keyspace.scheduledKey(drawId: drawId), drawId, ""])
        return try reply.text.map { (text: String) throws(StorageError) -> ScheduledDraw in try decoded(text, "claim a scheduled draw") }
    }

    public func claimDue(drawId: String) throws(StorageError) -> ScheduledDrawClaim {
        let operation = "claim a scheduled draw at its time"
        let reply = try write(operation, ["EVAL", Self.claimScript, "3", keyspace.scheduledRoomsKey,
                                          keyspace.scheduledIndexKey, keyspace.scheduledKey(drawId: drawId), drawId, "due"])
        switch reply {
        case .null: return .gone
        // At least 1 ms: a wait of 0 would ask again at once, and a negative one cannot be.
        case .integer(let ms): return .early(inMs: Double(max(1, ms)))
        default:
            guard let text = reply.text else { throw failure(write: operation, "answered \(reply)") }
            return .taken(try decoded(text, operation))
        }
    }

    /// Redis' `TIME` against `clock`, the round trip halved: the node's clock is read before and
    /// after, and Redis' reading is taken to be from their middle (off by at most half the round
    /// trip, well under a millisecond on a LAN).
    public func clockOffsetMs(from clock: any DrawClock) throws(StorageError) -> Double? {
        let operation = "read Redis' clock"
        let before = clock.epochMillis()
        let reply = try read(operation, ["TIME"])
        let after = clock.epochMillis()
        guard case .array(let parts) = reply, parts.count == 2,
              let seconds = parts[0].text.flatMap(Int64.init), let micros = parts[1].text.flatMap(Int64.init),
              seconds >= 0, (0..<1_000_000).contains(micros) else {
            throw failure(read: operation, "TIME answered \(reply)")
        }
        // Doubles: no Int64 arithmetic on Redis' numbers, so none can overflow.
        return Double(seconds) * 1_000 + Double(micros) / 1_000 - (before + after) / 2
    }

    private func decoded(_ text: String, _ operation: String) throws(StorageError) -> ScheduledDraw {
        do { return try StoredJSON.scheduled(from: text) } catch { throw failure(read: operation, error.description) }
    }
}
