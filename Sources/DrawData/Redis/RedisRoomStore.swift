import DrawCore

/// `RoomStore` on Redis, for cluster mode: every node sees the same rooms, so a room created on
/// one node can be joined, started, rotated or deleted through any other (docs/SCALING.md).
///
/// A room is a hash (`roomKey`: `keyHash` as hex, `createdAt`, `lastActivityAt`, `settings`, and
/// with its own list the list's `summary`, `usersSource`, `lotterySource`; the list itself under
/// `roomKey` + `:entrants`, read only when a draw starts, see `RedisRoomStore+Entrants`),
/// and an index sorted by last activity (`roomsIndexKey`) serves expiry and counting. Every
/// change that checks before it acts (create if absent, touch forward only, expire what is still
/// idle) is one Lua script, so two nodes racing on one room cannot interleave.
///
/// Blocking like every `RoomStore`: the server calls it from its storage thread. Redis failures
/// become `writeFailed`/`readFailed` naming the Redis address (never the password).
public struct RedisRoomStore: RoomStore {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace
    /// Seals the scheduled draws (`RedisRoomStore+Scheduled`); `.plain` without the cluster's secret.
    public let seal: StoredSeal
    /// Whose claims of scheduled draws this store makes: the node's id (a restarted node is a new
    /// claimant, so its old claims lapse rather than carry over).
    public let claimant: String
    /// How long a claim of a scheduled draw at its time holds before another node may take the
    /// draw (`RedisRoomStore+Scheduled`): far above a start's few round trips.
    public let claimLeaseMs: Int

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace(), seal: StoredSeal = .plain,
                claimant: String = "node", claimLeaseMs: Int = 5_000) {
        self.connection = connection
        self.keyspace = keyspace
        self.seal = seal
        self.claimant = claimant
        self.claimLeaseMs = max(1, claimLeaseMs)
    }

    /// KEYS: room, index. ARGV: name, keyHash, createdAt, lastActivityAt, settings.
    static let createScript = """
        if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
        redis.call('HSET', KEYS[1], 'keyHash', ARGV[2], 'createdAt', ARGV[3], 'lastActivityAt', ARGV[4], 'settings', ARGV[5])
        redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
        return 1
        """
    /// KEYS: room, index. ARGV: name, at, keyHash or ''. Moves the activity forward only.
    static let touchScript = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'keyHash', ARGV[3]) end
        \(touchForward)
        return 1
        """
    /// The Lua that moves a room's activity (KEYS[1], indexed in KEYS[2] under ARGV[1]) forward to
    /// ARGV[2], never back; shared by the scripts that count as activity.
    static let touchForward = """
        local last = tonumber(redis.call('HGET', KEYS[1], 'lastActivityAt')) or 0
        if tonumber(ARGV[2]) > last then
          redis.call('HSET', KEYS[1], 'lastActivityAt', ARGV[2])
          redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
        end
        """
    /// KEYS: room, index. ARGV: name.
    static let deleteScript = """
        redis.call('ZREM', KEYS[2], ARGV[1])
        redis.call('DEL', KEYS[1] .. ':entrants')
        return redis.call('DEL', KEYS[1])
        """
    /// KEYS: index. ARGV: cutoff, limit, room key prefix. Returns name, keyHash, createdAt,
    /// lastActivityAt for each room removed.
    static let expireScript = """
        local names = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
        local out = {}
        for _, name in ipairs(names) do
          local key = ARGV[3] .. name
          local f = redis.call('HMGET', key, 'keyHash', 'createdAt', 'lastActivityAt')
          redis.call('DEL', key, key .. ':entrants')
          redis.call('ZREM', KEYS[1], name)
          if f[1] then
            table.insert(out, name); table.insert(out, f[1]); table.insert(out, f[2]); table.insert(out, f[3])
          end
        end
        return out
        """

    public func createRoom(_ room: RoomRecord) throws(StorageError) {
        let created = try flag(write("create room", ["EVAL", Self.createScript, "2", keyspace.roomKey(room: room.name),
                                                     keyspace.roomsIndexKey, room.name, room.keyHash.hex,
                                                     Self.text(room.createdAt), Self.text(room.lastActivityAt), "{}"]),
                               "create room")
        if !created { throw .duplicateRoom(name: room.name) }
    }

    public func room(named name: String) throws(StorageError) -> RoomRecord? {
        let reply = try read("load room", ["HMGET", keyspace.roomKey(room: name), "keyHash", "createdAt", "lastActivityAt",
                                           "settings", "summary", "usersSource", "lotterySource"])
        guard case .array(let fields) = reply, fields.count == 7 else { throw failure(read: "load room", "HMGET answered \(reply)") }
        if fields[0] == .null { return nil }
        var room = try record(name, fields[0..<3].map(\.text), "load room")
        do {
            if let settings = fields[3].text { room.settings = try StoredJSON.settings(from: settings) }
            if let summary = fields[4].text {
                room.entrants = try StoredJSON.summary(from: summary, sources: DrawSources(usersURL: fields[5].text ?? "",
                                                                                            lotteryURL: fields[6].text ?? ""))
            } else if let users = fields[5].text, let lottery = fields[6].text {
                room.sourceURLs = DrawSources(usersURL: users, lotteryURL: lottery)
            }
        } catch {
            throw failure(read: "load room", "room \(name): \(error)")
        }
        return room
    }

    @discardableResult
    public func touchRoom(named name: String, at: Double) throws(StorageError) -> Bool {
        try flag(write("touch room", ["EVAL", Self.touchScript, "2", keyspace.roomKey(room: name), keyspace.roomsIndexKey,
                                      name, Self.text(at), ""]), "touch room")
    }

    @discardableResult
    public func deleteRoom(named name: String) throws(StorageError) -> Bool {
        try flag(write("delete room", ["EVAL", Self.deleteScript, "2", keyspace.roomKey(room: name), keyspace.roomsIndexKey, name]),
                 "delete room")
    }

    @discardableResult
    public func replaceKeyHash(ofRoom name: String, with keyHash: HostKeyHash, at: Double) throws(StorageError) -> Bool {
        try flag(write("rotate key", ["EVAL", Self.touchScript, "2", keyspace.roomKey(room: name), keyspace.roomsIndexKey,
                                      name, Self.text(at), keyHash.hex]), "rotate key")
    }

    public func expireRooms(idleBefore cutoff: Double, limit: Int) throws(StorageError) -> [RoomRecord] {
        guard limit > 0 else { return [] }
        let reply = try write("expire rooms", ["EVAL", Self.expireScript, "1", keyspace.roomsIndexKey, Self.text(cutoff),
                                               String(limit), keyspace.roomKey(room: "")])
        guard case .array(let items) = reply, items.count % 4 == 0 else { throw failure(write: "expire rooms", "answered \(reply)") }
        var rooms: [RoomRecord] = []
        var i = 0
        while i < items.count {
            let texts = items[i..<i + 4].map(\.text)
            guard let name = texts[0] else { throw failure(write: "expire rooms", "a room name that is not text") }
            rooms.append(try record(name, Array(texts[1...]), "expire rooms"))
            i += 4
        }
        return rooms
    }

    public func roomCount() throws(StorageError) -> Int {
        let reply = try read("count rooms", ["ZCARD", keyspace.roomsIndexKey])
        guard case .integer(let n) = reply, let count = Int(exactly: n) else { throw failure(read: "count rooms", "ZCARD answered \(reply)") }
        return count
    }

    // MARK: plumbing

    /// Times are epoch milliseconds; Redis keeps them as text (Lua's `tonumber` reads them back).
    static func text(_ ms: Double) -> String { String(ms) }

    /// A room's record from its hash fields; times out of `EpochMillis`' range (`NaN`, `1e300`:
    /// a room that would never expire) are a form this code never wrote.
    private func record(_ name: String, _ fields: [String?], _ operation: String) throws(StorageError) -> RoomRecord {
        guard fields.count == 3, let hex = fields[0], let hash = HostKeyHash(hex: hex),
              let created = fields[1].flatMap(Double.init), let last = fields[2].flatMap(Double.init),
              EpochMillis.isInRange(created), EpochMillis.isInRange(last) else {
            throw failure(read: operation, "room \(name) is stored in a form this live-draw cannot read")
        }
        return RoomRecord(name: name, keyHash: hash, createdAt: created, lastActivityAt: last)
    }

    private var address: String { connection.configuration.url.description }

    /// A command that only reads: asked again once if the connection breaks under it.
    func read(_ operation: String, _ arguments: [String]) throws(StorageError) -> RedisReply {
        try run(arguments, idempotent: true, onFailure: { failure(read: operation, $0) })
    }

    func write(_ operation: String, _ arguments: [String]) throws(StorageError) -> RedisReply {
        try write(operation, arguments.map { Array($0.utf8) })
    }

    /// A write with arguments as bytes (a sealed value is not text).
    func write(_ operation: String, _ arguments: [[UInt8]]) throws(StorageError) -> RedisReply {
        try run(arguments, idempotent: false, onFailure: { failure(write: operation, $0) })
    }

    /// One command; no answer, or an error reply, becomes the store's error.
    private func run(_ arguments: [String], idempotent: Bool,
                     onFailure: (String) -> StorageError) throws(StorageError) -> RedisReply {
        try run(arguments.map { Array($0.utf8) }, idempotent: idempotent, onFailure: onFailure)
    }

    private func run(_ arguments: [[UInt8]], idempotent: Bool,
                     onFailure: (String) -> StorageError) throws(StorageError) -> RedisReply {
        let reply: RedisReply
        do { reply = try connection.command(arguments, idempotent: idempotent) } catch { throw onFailure(error.description) }
        if case .error(let message) = reply { throw onFailure(message) }
        return reply
    }

    func flag(_ reply: RedisReply, _ operation: String) throws(StorageError) -> Bool {
        guard case .integer(let n) = reply, n == 0 || n == 1 else { throw failure(write: operation, "answered \(reply)") }
        return n == 1
    }

    func failure(read operation: String, _ reason: String) -> StorageError {
        .readFailed(path: address, operation: operation, reason: reason)
    }

    func failure(write operation: String, _ reason: String) -> StorageError {
        .writeFailed(path: address, operation: operation, reason: reason)
    }
}
