import DrawCore

/// Scheduled draws in cluster mode (issue 30): in Redis, so any node can start one whose
/// scheduling node died, and exactly one node does. Each draw is a string (`scheduledKey`, the
/// whole draw as JSON, `StoredJSON.scheduled`), indexed by its time (`scheduledIndexKey`) and by
/// its room (`scheduledRoomsKey`: one per room). Scheduling and claiming are one script each, so
/// two nodes cannot both claim a draw, nor schedule two in one room.
extension RedisRoomStore: ScheduledDrawStore {
    /// KEYS: rooms, index, draw. ARGV: room, drawId, at, json.
    static let scheduleScript = """
        if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
        redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
        redis.call('SET', KEYS[3], ARGV[4])
        return 1
        """
    /// KEYS: rooms, index, draw. ARGV: drawId. Returns the draw's JSON to the one caller that
    /// takes it, nil to the others.
    static let claimScript = """
        local json = redis.call('GET', KEYS[3])
        if not json then return false end
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
                                                         keyspace.scheduledIndexKey, keyspace.scheduledKey(drawId: drawId), drawId])
        return try reply.text.map { (text: String) throws(StorageError) -> ScheduledDraw in try decoded(text, "claim a scheduled draw") }
    }

    private func decoded(_ text: String, _ operation: String) throws(StorageError) -> ScheduledDraw {
        do { return try StoredJSON.scheduled(from: text) } catch { throw failure(read: operation, error.description) }
    }
}
