import DrawCore

/// `DrawEscrow` on Redis: one hash per room (`escrowKey`: `drawId`, `seed`, `roundsShown`,
/// `node`); `withdraw` reads and deletes it in one Lua script.
public struct RedisDrawEscrow: DrawEscrow {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    static let withdrawScript = """
        local f = redis.call('HMGET', KEYS[1], 'drawId', 'seed', 'roundsShown', 'node')
        redis.call('DEL', KEYS[1])
        return f
        """

    public func deposit(room: String, draw: EscrowedDraw) throws(CoordinationError) {
        _ = try connection.coordinate(["HSET", keyspace.escrowKey(room: room), "drawId", draw.drawId, "seed", draw.seedHex,
                     "roundsShown", String(draw.roundsShown), "node", draw.node])
    }

    public func withdraw(room: String) throws(CoordinationError) -> EscrowedDraw? {
        let reply = try connection.coordinate(["EVAL", Self.withdrawScript, "1", keyspace.escrowKey(room: room)])
        guard case .array(let f) = reply, f.count == 4 else { throw .unexpectedReply("the escrow answered \(reply)") }
        guard let drawId = f[0].text, let seed = f[1].text, let shown = f[2].text.flatMap(Int.init), let node = f[3].text else {
            return nil
        }
        return EscrowedDraw(drawId: drawId, seedHex: seed, roundsShown: shown, node: node)
    }

    public func clear(room: String) throws(CoordinationError) {
        _ = try connection.coordinate(["DEL", keyspace.escrowKey(room: room)])
    }
}
