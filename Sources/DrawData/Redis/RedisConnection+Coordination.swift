import DrawCore

extension RedisConnection {
    /// One command for the cluster's shared state (leases, views, escrow, presence): no answer
    /// becomes `unavailable`, Redis' out-of-memory reply `full` (`RedisReply.isOutOfMemory`), any
    /// other error reply `unexpectedReply`, so every adapter fails alike.
    /// `idempotent` as for `command`: only reads say so (the fenced scripts do not: sent twice,
    /// a draw event is published twice and a takeover answers "already ended" to itself).
    func coordinate(_ arguments: [[UInt8]], idempotent: Bool = false) throws(CoordinationError) -> RedisReply {
        let reply: RedisReply
        do { reply = try command(arguments, idempotent: idempotent) } catch { throw .unavailable(error.description) }
        if case .error(let message) = reply { throw reply.isOutOfMemory ? .full(message) : .unexpectedReply(message) }
        return reply
    }

    /// `coordinate` with text arguments (UTF-8).
    func coordinate(_ arguments: [String], idempotent: Bool = false) throws(CoordinationError) -> RedisReply {
        try coordinate(arguments.map { Array($0.utf8) }, idempotent: idempotent)
    }
}
