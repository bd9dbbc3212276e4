import DrawCore

/// `PresenceBoard` on Redis: one hash per room (`presenceKey`), node → `count:expiresAtMs`. A
/// report and the read-back are one Lua script; the key itself expires when no node has reported
/// for a while, so the fields of dead nodes do not pile up.
public struct RedisPresenceBoard: PresenceBoard {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    /// KEYS: presence. ARGV: node, stored report or '' to remove, key TTL in ms.
    static let reportScript = """
        if ARGV[2] == '' then redis.call('HDEL', KEYS[1], ARGV[1]) else redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
        redis.call('PEXPIRE', KEYS[1], ARGV[3])
        return redis.call('HGETALL', KEYS[1])
        """

    /// KEYS: the rooms' presence hashes. ARGV: node, key TTL in ms, then each room's stored
    /// report or '' (in KEYS' order). `reportScript` for each, in one round trip.
    static let reportAllScript = """
        local out = {}
        for i, key in ipairs(KEYS) do
          local stored = ARGV[2 + i]
          if stored == '' then redis.call('HDEL', key, ARGV[1]) else redis.call('HSET', key, ARGV[1], stored) end
          redis.call('PEXPIRE', key, ARGV[2])
          out[i] = redis.call('HGETALL', key)
        end
        return out
        """

    /// Rooms per script: a node watching thousands of rooms still blocks Redis only briefly.
    static let roomsPerBatch = 500

    public func reportAll(_ counts: [String: Int], node: String, nowMs: Double,
                          ttlMs: Double) throws(CoordinationError) -> [String: [PresenceReport]] {
        let rooms = counts.keys.sorted()
        var out: [String: [PresenceReport]] = [:]
        for start in stride(from: 0, to: rooms.count, by: Self.roomsPerBatch) {
            let batch = rooms[start..<min(start + Self.roomsPerBatch, rooms.count)]
            let stored = batch.map { room -> String in
                let viewers = counts[room] ?? 0
                return viewers > 0 ? PresenceReport(node: node, viewers: viewers, expiresAtMs: nowMs + ttlMs).stored : ""
            }
            let arguments = ["EVAL", Self.reportAllScript, String(batch.count)] + batch.map { keyspace.presenceKey(room: $0) }
                + [node, String(Int(max(1, ttlMs * 2)))] + stored
            // Sending a report twice stores the same value: safe to ask again after a cut-off.
            let reply = try connection.coordinate(arguments, idempotent: true)
            guard case .array(let perRoom) = reply, perRoom.count == batch.count else {
                throw .unexpectedReply("presence answered \(reply)")
            }
            for (room, items) in zip(batch, perRoom) { out[room] = try Self.reports(from: items) }
        }
        return out
    }

    public func report(room: String, node: String, viewers: Int, nowMs: Double,
                       ttlMs: Double) throws(CoordinationError) -> [PresenceReport] {
        let stored = viewers > 0 ? PresenceReport(node: node, viewers: viewers, expiresAtMs: nowMs + ttlMs).stored : ""
        let arguments = ["EVAL", Self.reportScript, "1", keyspace.presenceKey(room: room), node, stored,
                         String(Int(max(1, ttlMs * 2)))]
        return try Self.reports(from: connection.coordinate(arguments, idempotent: true))
    }

    /// An `HGETALL` of a presence hash: node, stored report, node, stored report, ... A field
    /// that is no report (`PresenceReport(node:stored:)` checks its numbers) is skipped.
    static func reports(from reply: RedisReply) throws(CoordinationError) -> [PresenceReport] {
        guard case .array(let items) = reply, items.count % 2 == 0 else { throw .unexpectedReply("presence answered \(reply)") }
        var reports: [PresenceReport] = []
        for i in stride(from: 0, to: items.count, by: 2) {
            if let node = items[i].text, let text = items[i + 1].text, let report = PresenceReport(node: node, stored: text) {
                reports.append(report)
            }
        }
        return reports
    }
}
