import DrawCore

/// `RoomLease` on Redis: the lease is a key holding the owner id with a TTL (`leaseKey`), and
/// the room's fencing token a key of its own that never expires (`fenceKey`).
///
/// Every call is one Lua script (`EVAL`), so checking and acting are one atomic step: of two
/// nodes racing for a free lease exactly one wins, and a lease that expired and was taken by
/// another node is never extended or deleted for the wrong owner.
///
/// The token of a grant is the larger of the Redis server's clock in microseconds (`TIME`) and
/// the room's last token plus one. The stored token alone would restart from zero when Redis
/// restarts empty, and hand a new holder a token an old one already has; the clock keeps
/// growing across the restart (as long as the Redis host's clock does not step back), so a token
/// granted after any restart is greater than every token granted before it. Scripts replicate
/// their effects (Redis 7), so the AOF keeps the token as written, not the `TIME` call.
public struct RedisRoomLease: RoomLease {
    /// KEYS: lease, fence. ARGV: owner, TTL. Answers the new token, or nil when the lease is held.
    static let acquireScript = """
        if redis.call('EXISTS', KEYS[1]) == 1 then return false end
        local t = redis.call('TIME')
        local token = math.max(tonumber(t[1]) * 1000000 + tonumber(t[2]), tonumber(redis.call('GET', KEYS[2]) or '0') + 1)
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        redis.call('SET', KEYS[2], string.format('%d', token))
        return token
        """
    /// KEYS: lease, fence. ARGV: owner, TTL, token. 1 kept, 2 taken back, 0 refused.
    static let renewScript = """
        local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
        if fence > tonumber(ARGV[3]) then return 0 end
        local holder = redis.call('GET', KEYS[1])
        if holder == ARGV[1] then
          redis.call('PEXPIRE', KEYS[1], ARGV[2])
          return 1
        end
        if holder then return 0 end
        redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
        redis.call('SET', KEYS[2], ARGV[3])
        return 2
        """
    /// Deletes the key only if it still holds this owner.
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    public func acquire(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> UInt64? {
        try Self.check(owner: owner, ttlMs: ttlMs)
        return try Self.grantedToken(run(["EVAL", Self.acquireScript, "2", keyspace.leaseKey(room: room),
                                          keyspace.fenceKey(room: room), owner, String(ttlMs)]))
    }

    /// The token `acquireScript` answered (`nil`: the lease is held). A token is positive:
    /// zero or a negative integer is an unexpected reply, never a wrapped `UInt64`.
    static func grantedToken(_ reply: RedisReply) throws(CoordinationError) -> UInt64? {
        switch reply {
        case .integer(let token) where token > 0: return UInt64(token)
        case .null: return nil
        case let other: throw .unexpectedReply("the lease grant answered \(other)")
        }
    }

    public func renew(room: String, owner: String, token: UInt64, ttlMs: Int) throws(CoordinationError) -> LeaseRenewal {
        try Self.check(owner: owner, ttlMs: ttlMs)
        let reply = try run(["EVAL", Self.renewScript, "2", keyspace.leaseKey(room: room), keyspace.fenceKey(room: room),
                             owner, String(ttlMs), String(token)])
        switch reply {
        case .integer(1): return .kept
        case .integer(2): return .retaken
        case .integer(0): return .refused
        default: throw .unexpectedReply("renew answered \(reply)")
        }
    }

    @discardableResult
    public func release(room: String, owner: String) throws(CoordinationError) -> Bool {
        try Self.check(owner: owner, ttlMs: 1)
        return try flag(run(["EVAL", Self.releaseScript, "1", keyspace.leaseKey(room: room), owner]), "release")
    }

    public func owner(ofRoom room: String) throws(CoordinationError) -> String? {
        switch try connection.coordinate(["GET", keyspace.leaseKey(room: room)], idempotent: true) {
        case .null: return nil
        case let reply:
            guard let owner = reply.text else { throw .unexpectedReply("GET answered \(reply)") }
            return owner
        }
    }

    private func run(_ arguments: [String]) throws(CoordinationError) -> RedisReply {
        try connection.coordinate(arguments)
    }

    private func flag(_ reply: RedisReply, _ what: String) throws(CoordinationError) -> Bool {
        guard case .integer(let n) = reply, n == 0 || n == 1 else { throw .unexpectedReply("\(what) answered \(reply)") }
        return n == 1
    }

    private static func check(owner: String, ttlMs: Int) throws(CoordinationError) {
        guard !owner.isEmpty else { throw .invalidArgument("empty lease owner") }
        guard ttlMs >= 1 else { throw .invalidArgument("lease TTL must be at least 1 ms, got \(ttlMs)") }
    }
}
