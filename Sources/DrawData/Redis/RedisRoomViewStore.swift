import DrawCore

/// `RoomViewStore` on Redis: a hash per room (`viewKey`: `head`, `drawId`, `progress`, `loading`,
/// `lastResult`; `endDrawId`, `endWire`: the last draw end) and a list of the running draw's
/// rounds (`viewRoundsKey`). Each event is folded in by the draw's fenced entry
/// (`RedisFencedDrawLog`), one script, so a reader never sees half an event. With the cluster's
/// secret the parts were stored sealed; one whose seal is wrong makes the whole read fail, so
/// the node treats the room's view as unknown rather than show a forged part.
public struct RedisRoomViewStore: RoomViewStore {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace
    public let seal: StoredSeal

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace(), seal: StoredSeal = .plain) {
        self.connection = connection
        self.keyspace = keyspace
        self.seal = seal
    }

    /// KEYS: view, rounds. Both in one step.
    static let readScript = """
        return {redis.call('HMGET', KEYS[1], 'head', 'drawId', 'loading', 'lastResult', 'endDrawId', 'endWire', 'progress'), redis.call('LRANGE', KEYS[2], 0, -1)}
        """

    public func view(room: String) throws(CoordinationError) -> StoredRoomView {
        let viewKey = keyspace.viewKey(room: room), roundsKey = keyspace.viewRoundsKey(room: room)
        let reply = try connection.coordinate([Array("EVAL".utf8), Array(Self.readScript.utf8), Array("2".utf8),
                                               Array(viewKey.utf8), Array(roundsKey.utf8)], idempotent: true)
        return try Self.view(from: reply, seal: seal, viewKey: viewKey, roundsKey: roundsKey)
    }

    /// The view `readScript`'s `reply` holds. Its parts are bytes for snapshots, with no number
    /// to check: the rounds' count is what the list holds. Each part present is opened with
    /// `seal` (bound to its key and `SealedFields`); one refused fails the read.
    static func view(from reply: RedisReply, seal: StoredSeal = .plain, viewKey: String = "",
                     roundsKey: String = "") throws(CoordinationError) -> StoredRoomView {
        guard case .array(let parts) = reply, parts.count == 2, case .array(let fields) = parts[0], fields.count == 7,
              case .array(let rounds) = parts[1] else { throw .unexpectedReply("the view read answered \(reply)") }
        func opened(_ r: RedisReply, _ key: String, _ field: String) throws(CoordinationError) -> [UInt8]? {
            guard let sealed = r.bytes else { return nil }
            guard let value = seal.open(sealed, key: key, field: field, kind: .view) else {
                throw .unexpectedReply("the view's \(field.split(separator: "\n").first ?? "") in \(key) does not carry the cluster's seal; refused")
            }
            return value
        }
        let drawId = fields[1].text ?? ""
        let head = try opened(fields[0], viewKey, SealedFields.head(drawId))
        var shown: [[UInt8]] = []
        if head != nil {
            for (index, round) in rounds.enumerated() {
                if let value = try opened(round, roundsKey, SealedFields.round(drawId, index)) { shown.append(value) }
            }
        }
        var lastEnd: StoredDrawEnd?
        if let id = fields[4].text, let wire = try opened(fields[5], viewKey, SealedFields.endWire(id)) {
            lastEnd = StoredDrawEnd(drawId: id, wire: wire)
        }
        return StoredRoomView(head: head, drawId: head == nil ? nil : fields[1].text, rounds: shown,
                              progress: head == nil ? nil : try opened(fields[6], viewKey, SealedFields.progress(drawId)),
                              loading: fields[2].text == "1",
                              lastResult: try opened(fields[3], viewKey, SealedFields.lastResult), lastEnd: lastEnd)
    }
}
