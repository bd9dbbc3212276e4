import DrawCore

/// Scheduled draws in cluster mode (issue 30): in Redis, so any node can start one whose
/// scheduling node died, and exactly one node does. Each draw is a string (`scheduledKey`, the
/// whole draw as JSON, `StoredJSON.scheduled`), indexed by its time (`scheduledIndexKey`) and by
/// its room (`scheduledRoomsKey`: one per room). Scheduling and claiming are one script each, so
/// two nodes cannot both claim a draw, nor schedule two in one room. With the cluster's secret
/// each draw's JSON is kept sealed (`StoredSeal`, bound to its key); one whose seal is wrong is
/// refused when read (left out, or, claimed, taken and dropped) rather than started.
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
    /// KEYS: rooms, index, draw, claim, draw end. ARGV: drawId, 'due' for a claim at the draw's
    /// time ('' for a cancel), the bytes of the seal's tag after the JSON ('0' unsealed), the
    /// claimant, the claim's lease in ms.
    ///
    /// A claim at its time is a lease (`scheduledClaimKey`), not a removal: the draw stays kept
    /// until its first step is recorded (`RedisFencedDrawLog` removes it in that step's script)
    /// or its miss is (`finishClaim`). A node killed between its claim and its start leaves a
    /// lease that ends; another node then takes the draw (the soak lost one that way). Answers:
    /// the draw's stored value to the caller that holds the claim now (the same claimant asking
    /// again renews it); nil when it is gone (or its end was claimed: it ran); for a claim
    /// before its time by Redis' clock, the ms still to wait (an integer); `{'held', ms}` while
    /// another claimant's lease runs. A cancel takes it out unless a claim holds it (starting).
    /// A value whose seal is wrong is still taken, its room freed if its JSON names one (the
    /// caller refuses it): a planted draw does not hold its room's one schedule.
    static let claimScript = """
        local json = redis.call('GET', KEYS[3])
        if not json then return false end
        local function drop()
          redis.call('DEL', KEYS[3], KEYS[4])
          redis.call('ZREM', KEYS[2], ARGV[1])
        end
        local holder = redis.call('GET', KEYS[4])
        if ARGV[2] == 'due' then
          if redis.call('EXISTS', KEYS[5]) == 1 then drop() return false end
          local at = tonumber(redis.call('ZSCORE', KEYS[2], ARGV[1]))
          local t = redis.call('TIME')
          local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
          if at and now < at then return math.ceil(at - now) end
          if holder and holder ~= ARGV[4] then return {'held', redis.call('PTTL', KEYS[4])} end
          redis.call('SET', KEYS[4], ARGV[4], 'PX', ARGV[5])
        else
          if holder then return false end
          drop()
        end
        local function roomOf(text)
          local ok, draw = pcall(cjson.decode, text)
          if ok and type(draw) == 'table' and type(draw.room) == 'string' then return draw.room end
        end
        local room = roomOf(string.sub(json, 1, string.len(json) - tonumber(ARGV[3]))) or roomOf(json)
        if room and redis.call('HGET', KEYS[1], room) == ARGV[1] then redis.call('HDEL', KEYS[1], room) end
        return json
        """
    /// KEYS: draw, claim, index. ARGV: drawId, claimant, 'finish' (the draw leaves) or 'return'
    /// (only the claim goes). Only the claimant's own claim.
    static let releaseScript = """
        if redis.call('GET', KEYS[2]) ~= ARGV[2] then return 0 end
        redis.call('DEL', KEYS[2])
        if ARGV[3] == 'finish' then
          redis.call('DEL', KEYS[1])
          redis.call('ZREM', KEYS[3], ARGV[1])
        end
        return 1
        """

    public func schedule(_ draw: ScheduledDraw) throws(StorageError) -> Bool {
        let key = keyspace.scheduledKey(drawId: draw.drawId)
        let texts = ["EVAL", Self.scheduleScript, "3", keyspace.scheduledRoomsKey, keyspace.scheduledIndexKey, key,
                     draw.room, draw.drawId, Self.text(draw.at)]
        return try flag(write("schedule a draw", texts.map { Array($0.utf8) }
                                + [seal.seal(Array(StoredJSON.scheduled(draw).utf8), key: key)]),
                        "schedule a draw")
    }

    /// Every draw waiting, soonest first; a claimed one is not waiting (while its lease runs).
    public func scheduledDraws() throws(StorageError) -> [ScheduledDraw] {
        let ids = try read("read the scheduled draws", ["ZRANGE", keyspace.scheduledIndexKey, "0", "-1"])
        guard case .array(let items) = ids else { throw failure(read: "read the scheduled draws", "ZRANGE answered \(ids)") }
        let drawIds = items.compactMap(\.text)
        guard !drawIds.isEmpty else { return [] }
        let keys = drawIds.map { keyspace.scheduledKey(drawId: $0) }
        let values = try read("read the scheduled draws", ["MGET"] + keys + drawIds.map { keyspace.scheduledClaimKey(drawId: $0) })
        guard case .array(let stored) = values, stored.count == 2 * keys.count else {
            throw failure(read: "read the scheduled draws", "MGET answered \(values)")
        }
        // A draw claimed between the two reads is simply gone; one refused by the seal too.
        var draws: [ScheduledDraw] = []
        for (index, key) in keys.enumerated() where stored[keys.count + index] == .null {
            if let text = opened(stored[index], key: key) { draws.append(try decoded(text, "read the scheduled draws")) }
        }
        return draws
    }

    public func scheduledDraw(id drawId: String) throws(StorageError) -> ScheduledDraw? {
        let key = keyspace.scheduledKey(drawId: drawId)
        let reply = try read("read a scheduled draw", ["GET", key])
        return try opened(reply, key: key).map { (text: String) throws(StorageError) -> ScheduledDraw in
            try decoded(text, "read a scheduled draw")
        }
    }

    public func claim(drawId: String) throws(StorageError) -> ScheduledDraw? {
        let key = keyspace.scheduledKey(drawId: drawId)
        let reply = try write("claim a scheduled draw", claimCommand(drawId: drawId, due: false))
        return try opened(reply, key: key).map { (text: String) throws(StorageError) -> ScheduledDraw in
            try decoded(text, "claim a scheduled draw")
        }
    }

    public func claimDue(drawId: String) throws(StorageError) -> ScheduledDrawClaim {
        let operation = "claim a scheduled draw at its time"
        let key = keyspace.scheduledKey(drawId: drawId)
        let reply = try write(operation, claimCommand(drawId: drawId, due: true))
        switch reply {
        case .null: return .gone
        // At least 1 ms: a wait of 0 would ask again at once, and a negative one cannot be.
        case .integer(let ms): return .early(inMs: Double(max(1, ms)))
        case .array(let parts) where parts.count == 2 && parts[0].text == "held":
            // PTTL: -1/-2 (no expiry, gone meanwhile) ask again soon; the lease's length at most.
            guard case .integer(let ms) = parts[1] else { throw failure(write: operation, "answered \(reply)") }
            return .held(inMs: Double(min(max(1, ms), Int64(claimLeaseMs))))
        case .string:
            // Taken either way; one whose seal is wrong is dropped for good, as if it were gone.
            guard let text = opened(reply, key: key) else {
                try finishClaim(drawId: drawId)
                return .gone
            }
            return .taken(try decoded(text, operation))
        default:
            throw failure(write: operation, "answered \(reply)")
        }
    }

    public func renewClaim(drawId: String) throws(StorageError) -> Bool {
        if case .taken = try claimDue(drawId: drawId) { return true }
        return false
    }

    public func finishClaim(drawId: String) throws(StorageError) {
        _ = try write("finish a scheduled draw's claim", releaseCommand(drawId: drawId, mode: "finish"))
    }

    public func returnClaim(_ draw: ScheduledDraw) throws(StorageError) {
        _ = try write("return a scheduled draw's claim", releaseCommand(drawId: draw.drawId, mode: "return"))
    }

    private func claimCommand(drawId: String, due: Bool) -> [String] {
        ["EVAL", Self.claimScript, "5", keyspace.scheduledRoomsKey, keyspace.scheduledIndexKey,
         keyspace.scheduledKey(drawId: drawId), keyspace.scheduledClaimKey(drawId: drawId), keyspace.drawEndKey(drawId: drawId),
         drawId, due ? "due" : "", tagBytes, claimant, String(claimLeaseMs)]
    }

    private func releaseCommand(drawId: String, mode: String) -> [String] {
        ["EVAL", Self.releaseScript, "3", keyspace.scheduledKey(drawId: drawId), keyspace.scheduledClaimKey(drawId: drawId),
         keyspace.scheduledIndexKey, drawId, claimant, mode]
    }

    /// The bytes the seal adds after a draw's JSON, for `claimScript` to cut before decoding.
    private var tagBytes: String { seal.seals ? String(StoredSeal.tagBytes) : "0" }

    /// The JSON in a stored draw `reply` (`nil`: none, or refused by the seal).
    private func opened(_ reply: RedisReply, key: String) -> String? {
        reply.bytes.flatMap { seal.open($0, key: key, kind: .schedule) }.flatMap { String(validating: $0, as: UTF8.self) }
    }

    /// Redis' `TIME` against `clock`, the round trip halved: the node's clock is read before and
    /// after, and Redis' reading is taken to be from their middle (off by at most half the round
    /// trip, well under a millisecond on a LAN).
    public func clockOffsetMs(from clock: any DrawClock) throws(StorageError) -> Double? {
        let operation = "read Redis' clock"
        let before = clock.epochMillis()
        let reply = try read(operation, ["TIME"])
        let after = clock.epochMillis()
        guard let offset = Self.clockOffsetMs(time: reply, before: before, after: after) else {
            throw failure(read: operation, "TIME answered \(reply)")
        }
        return offset
    }

    /// The offset a `TIME` reply gives against the node's readings `before` and `after` it;
    /// `nil` for a reply that is no time any draw can have (`EpochMillis`).
    static func clockOffsetMs(time reply: RedisReply, before: Double, after: Double) -> Double? {
        guard case .array(let parts) = reply, parts.count == 2,
              let seconds = parts[0].text.flatMap(Int64.init), let micros = parts[1].text.flatMap(Int64.init),
              seconds >= 0, (0..<1_000_000).contains(micros) else { return nil }
        // Doubles: no Int64 arithmetic on Redis' numbers, so none can overflow.
        let redisMs = Double(seconds) * 1_000 + Double(micros) / 1_000
        guard EpochMillis.isInRange(redisMs) else { return nil }
        return redisMs - (before + after) / 2
    }

    private func decoded(_ text: String, _ operation: String) throws(StorageError) -> ScheduledDraw {
        do { return try StoredJSON.scheduled(from: text) } catch { throw failure(read: operation, error.description) }
    }
}
