import DrawCore

/// `SharedDrawRecords` on Redis: the body as a string (`drawKey`) and the room's draws in a
/// sorted set by start time (`historyKey`), for a shared history listing later.
public struct RedisSharedDrawRecords: SharedDrawRecords {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    public func keep(drawId: String, room: String, startedAtMs: Double, body: [UInt8]) throws(CoordinationError) {
        _ = try connection.coordinate([Array("SET".utf8), Array(keyspace.drawKey(drawId: drawId).utf8), body])
        _ = try connection.coordinate(["ZADD", keyspace.historyKey(room: room), String(startedAtMs), drawId])
    }

    public func body(drawId: String) throws(CoordinationError) -> [UInt8]? {
        switch try connection.coordinate(["GET", keyspace.drawKey(drawId: drawId)]) {
        case .null: return nil
        case .string(let bytes): return bytes
        case let other: throw .unexpectedReply("GET answered \(other)")
        }
    }
}
