import DrawCore

/// `RoomViewStore` on Redis: a hash per room (`viewKey`: `head`, `drawId`, `progress`, `loading`,
/// `lastResult`; `endDrawId`, `endWire`: the last draw end) and a list of the running draw's
/// rounds (`viewRoundsKey`). Each event is folded in by the draw's fenced entry
/// (`RedisFencedDrawLog`), one script, so a reader never sees half an event.
public struct RedisRoomViewStore: RoomViewStore {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace()) {
        self.connection = connection
        self.keyspace = keyspace
    }

    /// KEYS: view, rounds. Both in one step.
    static let readScript = """
        return {redis.call('HMGET', KEYS[1], 'head', 'drawId', 'loading', 'lastResult', 'endDrawId', 'endWire', 'progress'), redis.call('LRANGE', KEYS[2], 0, -1)}
        """

    public func view(room: String) throws(CoordinationError) -> StoredRoomView {
        let reply = try connection.coordinate([Array("EVAL".utf8), Array(Self.readScript.utf8), Array("2".utf8),
                             Array(keyspace.viewKey(room: room).utf8), Array(keyspace.viewRoundsKey(room: room).utf8)],
                                              idempotent: true)
        return try Self.view(from: reply)
    }

    /// The view `readScript`'s `reply` holds. Its parts are bytes for snapshots, with no number
    /// to check: the rounds' count is what the list holds.
    static func view(from reply: RedisReply) throws(CoordinationError) -> StoredRoomView {
        guard case .array(let parts) = reply, parts.count == 2, case .array(let fields) = parts[0], fields.count == 7,
              case .array(let rounds) = parts[1] else { throw .unexpectedReply("the view read answered \(reply)") }
        func bytes(_ r: RedisReply) -> [UInt8]? { if case .string(let b) = r { return b } else { return nil } }
        let head = bytes(fields[0])
        return StoredRoomView(head: head, drawId: head == nil ? nil : fields[1].text,
                              rounds: head == nil ? [] : rounds.compactMap(bytes),
                              progress: head == nil ? nil : bytes(fields[6]), loading: fields[2].text == "1",
                              lastResult: bytes(fields[3]),
                              lastEnd: fields[4].text.flatMap { id in bytes(fields[5]).map { StoredDrawEnd(drawId: id, wire: $0) } })
    }
}
