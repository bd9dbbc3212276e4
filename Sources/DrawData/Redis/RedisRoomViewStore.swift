import DrawCore

/// `RoomViewStore` on Redis: a hash per room (`viewKey`: `head`, `drawId`, `loading`,
/// `lastResult`) and a list of the running draw's rounds (`viewRoundsKey`). Each event is folded
/// in by one Lua script, so a reader never sees half an event.
public struct RedisRoomViewStore: RoomViewStore {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    /// KEYS: view, rounds. ARGV: kind, drawId, index, part. The rules of `RemoteRoomView.apply`.
    static let recordScript = """
        local kind = ARGV[1]
        if kind == 'round' then
          if redis.call('HGET', KEYS[1], 'drawId') == ARGV[2] and redis.call('LLEN', KEYS[2]) == tonumber(ARGV[3]) then
            redis.call('RPUSH', KEYS[2], ARGV[4])
          end
          return 1
        end
        redis.call('DEL', KEYS[2])
        redis.call('HDEL', KEYS[1], 'head', 'drawId')
        redis.call('HSET', KEYS[1], 'loading', kind == 'loading' and '1' or '0')
        if kind == 'started' then redis.call('HSET', KEYS[1], 'head', ARGV[4], 'drawId', ARGV[2]) end
        if kind == 'finished' then redis.call('HSET', KEYS[1], 'lastResult', ARGV[4]) end
        return 1
        """
    /// KEYS: view, rounds. Both in one step.
    static let readScript = """
        return {redis.call('HMGET', KEYS[1], 'head', 'drawId', 'loading', 'lastResult'), redis.call('LRANGE', KEYS[2], 0, -1)}
        """

    public func record(room: String, kind: String, drawId: String?, index: Int?, part: [UInt8]) throws(CoordinationError) {
        let arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(Self.recordScript.utf8), Array("2".utf8),
            Array(keyspace.viewKey(room: room).utf8), Array(keyspace.viewRoundsKey(room: room).utf8),
            Array(kind.utf8), Array((drawId ?? "").utf8), Array(String(index ?? -1).utf8), part,
        ]
        _ = try connection.coordinate(arguments)
    }

    public func view(room: String) throws(CoordinationError) -> StoredRoomView {
        let reply = try connection.coordinate([Array("EVAL".utf8), Array(Self.readScript.utf8), Array("2".utf8),
                             Array(keyspace.viewKey(room: room).utf8), Array(keyspace.viewRoundsKey(room: room).utf8)])
        guard case .array(let parts) = reply, parts.count == 2, case .array(let fields) = parts[0], fields.count == 4,
              case .array(let rounds) = parts[1] else { throw .unexpectedReply("the view read answered \(reply)") }
        func bytes(_ r: RedisReply) -> [UInt8]? { if case .string(let b) = r { return b } else { return nil } }
        let head = bytes(fields[0])
        return StoredRoomView(head: head, drawId: head == nil ? nil : fields[1].text,
                              rounds: head == nil ? [] : rounds.compactMap(bytes), loading: fields[2].text == "1",
                              lastResult: bytes(fields[3]))
    }
}
