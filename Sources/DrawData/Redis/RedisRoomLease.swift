import DrawCore

/// `RoomLease` on Redis: the lease is a key holding the owner id with a TTL (`leaseKey`).
///
/// `acquire` is `SET key owner NX PX ttl`: atomic, so of two nodes racing exactly one wins, and
/// Redis itself expires the key. `renew` and `release` must check the owner and act in one step,
/// or a lease that expired and was taken by another node between the check and the act would be
/// extended or deleted for the wrong owner; a small Lua script (`EVAL`) does both atomically.
public struct RedisRoomLease: RoomLease {
    /// Extends the key's TTL only if it still holds this owner.
    static let renewScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return 0
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

    public func acquire(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> Bool {
        try Self.check(owner: owner, ttlMs: ttlMs)
        switch try run(["SET", keyspace.leaseKey(room: room), owner, "NX", "PX", String(ttlMs)]) {
        case .status("OK"): return true
        case .null: return false
        case let other: throw .unexpectedReply("SET NX PX answered \(other)")
        }
    }

    public func renew(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> Bool {
        try Self.check(owner: owner, ttlMs: ttlMs)
        return try flag(run(["EVAL", Self.renewScript, "1", keyspace.leaseKey(room: room), owner, String(ttlMs)]), "renew")
    }

    @discardableResult
    public func release(room: String, owner: String) throws(CoordinationError) -> Bool {
        try Self.check(owner: owner, ttlMs: 1)
        return try flag(run(["EVAL", Self.releaseScript, "1", keyspace.leaseKey(room: room), owner]), "release")
    }

    public func owner(ofRoom room: String) throws(CoordinationError) -> String? {
        switch try run(["GET", keyspace.leaseKey(room: room)]) {
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
