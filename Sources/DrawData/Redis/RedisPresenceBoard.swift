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

    public func report(room: String, node: String, viewers: Int, nowMs: Double,
                       ttlMs: Double) throws(CoordinationError) -> [PresenceReport] {
        let stored = viewers > 0 ? PresenceReport(node: node, viewers: viewers, expiresAtMs: nowMs + ttlMs).stored : ""
        let arguments = ["EVAL", Self.reportScript, "1", keyspace.presenceKey(room: room), node, stored,
                         String(Int(max(1, ttlMs * 2)))]
        let reply = try connection.coordinate(arguments)
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
