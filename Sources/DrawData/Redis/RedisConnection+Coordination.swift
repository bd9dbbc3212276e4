import DrawCore

extension RedisConnection {
    /// One command for the cluster's shared state (leases, views, escrow, presence): no answer
    /// becomes `unavailable`, an error reply `unexpectedReply`, so every adapter fails alike.
    func coordinate(_ arguments: [[UInt8]]) throws(CoordinationError) -> RedisReply {
        let reply: RedisReply
        do { reply = try command(arguments) } catch { throw .unavailable(error.description) }
        if case .error(let message) = reply { throw .unexpectedReply(message) }
        return reply
    }

    /// `coordinate` with text arguments (UTF-8).
    func coordinate(_ arguments: [String]) throws(CoordinationError) -> RedisReply {
        try coordinate(arguments.map { Array($0.utf8) })
    }
}
