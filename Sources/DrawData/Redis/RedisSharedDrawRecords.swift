import DrawCore

/// `SharedDrawRecords` on Redis: the body as a string (`drawKey`) and the room's draws in a
/// sorted set by start time (`historyKey`), for a shared history listing later; each draw's
/// entrants as a string too (`entrantsKey`).
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
}
