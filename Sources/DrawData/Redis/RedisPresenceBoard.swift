import DrawCore

/// `PresenceBoard` on Redis: one hash per room (`presenceKey`), node → `count:expiresAtMs`. A
/// report and the read-back are one Lua script; the key itself expires when no node has reported
/// for a while, so the fields of dead nodes do not pile up.
///
/// Expiry is Redis' clock (`TIME`, read in the script), never a node's: a node whose clock ran
/// 30 s ahead used to see every other node's report as expired (it counted only its own
/// viewers), and one 30 s behind wrote reports the others saw as expired (issue 36).
public struct RedisPresenceBoard: PresenceBoard {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    /// KEYS: the rooms' presence hashes. ARGV: node, key TTL in ms, report TTL in ms, then each
    /// room's viewers here (in KEYS' order; 0 removes the node's field). Returns each room's live
    /// fields (node, `count:expiresAtMs`, ...) by Redis' clock; expired ones are removed.
    static let reportAllScript = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local expires = string.format('%.0f', now + tonumber(ARGV[3]))
        local out = {}
        for i, key in ipairs(KEYS) do
          local viewers = ARGV[3 + i]
          if viewers == '0' then redis.call('HDEL', key, ARGV[1]) else redis.call('HSET', key, ARGV[1], viewers .. ':' .. expires) end
          redis.call('PEXPIRE', key, ARGV[2])
          local all, live = redis.call('HGETALL', key), {}
          for j = 1, #all, 2 do
            local at = tonumber(string.match(all[j + 1], ':([^:]*)$') or '')
            if at ~= nil and at <= now then
              redis.call('HDEL', key, all[j])
            else
              live[#live + 1] = all[j]
              live[#live + 1] = all[j + 1]
            end
          end
          out[i] = live
        end
        return out
        """

    /// Rooms per script: a node watching thousands of rooms still blocks Redis only briefly.
    static let roomsPerBatch = 500

    public func reportAll(_ counts: [String: Int], node: String,
                          ttlMs: Double) throws(CoordinationError) -> [String: [PresenceReport]] {
        let rooms = counts.keys.sorted()
        let reportTTL = String(Int(max(1, min(ttlMs, Self.maxTTLMs))))
        let keyTTL = String(Int(max(1, min(ttlMs, Self.maxTTLMs) * 2)))
        var out: [String: [PresenceReport]] = [:]
        for start in stride(from: 0, to: rooms.count, by: Self.roomsPerBatch) {
            let batch = rooms[start..<min(start + Self.roomsPerBatch, rooms.count)]
            let arguments = ["EVAL", Self.reportAllScript, String(batch.count)] + batch.map { keyspace.presenceKey(room: $0) }
                + [node, keyTTL, reportTTL] + batch.map { String(max(0, counts[$0] ?? 0)) }
            // Sending a report twice stores the same value: safe to ask again after a cut-off.
            let reply = try connection.coordinate(arguments, idempotent: true)
            guard case .array(let perRoom) = reply, perRoom.count == batch.count else {
                throw .unexpectedReply("presence answered \(reply)")
            }
            for (room, items) in zip(batch, perRoom) { out[room] = try Self.reports(from: items) }
        }
        return out
    }

    public func report(room: String, node: String, viewers: Int, ttlMs: Double) throws(CoordinationError) -> [PresenceReport] {
        try reportAll([room: viewers], node: node, ttlMs: ttlMs)[room] ?? []
    }

    /// A report's TTL is capped (a day) so the script's arithmetic stays in whole milliseconds.
    static let maxTTLMs = 86_400_000.0

    /// A room's live fields: node, stored report, node, stored report, ... A field that is no
    /// report (`PresenceReport(node:stored:)` checks its numbers) is skipped.
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
