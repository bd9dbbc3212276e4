import DrawCore

/// `FencedDrawLog` on Redis: one Lua script per draw event checks the entry's token against the
/// room's (`fenceKey`), then folds the event into the view (`viewKey`, `viewRoundsKey`), moves the
/// seed escrow (`escrowKey`), claims the draw's end (`drawEndKey`) and `PUBLISH`es the envelope.
/// A script runs atomically, so no other node's write or publish falls between the check and
/// the acts; that is what makes the token a fence rather than advice (Kleppmann, "How to do
/// distributed locking").
///
/// With the cluster's secret every part the script stores for a reader is sent sealed
/// (`StoredSeal`, bound to its key and `SealedFields`): the view's parts and end, the escrow's
/// count and node, and its seed encrypted. The script stores them as they come; readers open them.
public struct RedisFencedDrawLog: FencedDrawLog {
    public let connection: RedisConnection
    public let keyspace: RedisKeyspace
    public let seal: StoredSeal

    public init(connection: RedisConnection, keyspace: RedisKeyspace = RedisKeyspace(), seal: StoredSeal = .plain) {
        self.connection = connection
        self.keyspace = keyspace
        self.seal = seal
    }

    /// KEYS: fence, view, view rounds, escrow, draw end, scheduled draw, its claim, scheduled
    /// index (the last three: a scheduled draw leaves the store with its first step past
    /// `loading`, in this script, so it is either recorded running or still kept to start; see
    /// `RedisRoomStore.claimScript`). ARGV: token, kind, drawId, index, view
    /// part, escrow change (keep, deposit, clear, take), seed, rounds shown, node, channel,
    /// payload ('' publishes nothing), end wire ('' when the entry is no end), sequence ('' for a
    /// one-off entry; else the view's `applied` field, `token:sequence`, marks the last entry
    /// applied, so a retry of it is acknowledged, {1, 0}, without a second fold or publish).
    /// Answers {1, receivers} applied,
    /// {0, newest token, end drawId, end wire} refused, {2, 0, end drawId, end wire} already ended.
    /// The view follows `RemoteRoomView.apply`'s rules: a `round` without an index (-1), a
    /// per-winner event, keeps its view part as the draw's `progress`.
    static let appendScript = """
        local token = tonumber(ARGV[1])
        local fence = tonumber(redis.call('GET', KEYS[1]) or '0')
        local function lastEnd() return redis.call('HMGET', KEYS[2], 'endDrawId', 'endWire') end
        if fence > token then
          local e = lastEnd()
          return {0, fence, e[1], e[2]}
        end
        if fence < token then redis.call('SET', KEYS[1], ARGV[1]) end
        if ARGV[13] ~= '' then
          local mark = ARGV[1] .. ':' .. ARGV[13]
          if redis.call('HGET', KEYS[2], 'applied') == mark then return {1, 0} end
        end
        local kind, drawId = ARGV[2], ARGV[3]
        if ARGV[6] == 'take' and redis.call('HGET', KEYS[4], 'drawId') ~= drawId then
          local e = lastEnd()
          return {2, 0, e[1], e[2]}
        end
        if ARGV[12] ~= '' and drawId ~= '' then
          local claim = redis.call('GET', KEYS[5])
          if claim and claim ~= ARGV[1] then
            local e = lastEnd()
            return {2, 0, e[1], e[2]}
          end
          redis.call('SET', KEYS[5], ARGV[1])
          redis.call('HSET', KEYS[2], 'endDrawId', drawId, 'endWire', ARGV[12])
        end
        if kind == 'round' and ARGV[4] == '-1' then
          if ARGV[5] ~= '' and redis.call('HGET', KEYS[2], 'drawId') == drawId then
            redis.call('HSET', KEYS[2], 'progress', ARGV[5])
          end
        elseif kind == 'round' then
          if redis.call('HGET', KEYS[2], 'drawId') == drawId and redis.call('LLEN', KEYS[3]) == tonumber(ARGV[4]) then
            redis.call('RPUSH', KEYS[3], ARGV[5])
          end
        else
          redis.call('DEL', KEYS[3])
          redis.call('HDEL', KEYS[2], 'head', 'drawId', 'progress')
          redis.call('HSET', KEYS[2], 'loading', kind == 'loading' and '1' or '0')
          if kind == 'started' then redis.call('HSET', KEYS[2], 'head', ARGV[5], 'drawId', drawId) end
          if kind == 'finished' then redis.call('HSET', KEYS[2], 'lastResult', ARGV[5]) end
        end
        if drawId ~= '' and kind ~= 'loading' and kind ~= 'round' then
          redis.call('DEL', KEYS[6], KEYS[7])
          redis.call('ZREM', KEYS[8], drawId)
        end
        if ARGV[6] == 'deposit' then
          redis.call('HSET', KEYS[4], 'drawId', drawId, 'seed', ARGV[7], 'roundsShown', ARGV[8], 'node', ARGV[9])
        elseif ARGV[6] == 'clear' or ARGV[6] == 'take' then
          redis.call('DEL', KEYS[4])
        end
        if ARGV[13] ~= '' then redis.call('HSET', KEYS[2], 'applied', ARGV[1] .. ':' .. ARGV[13]) end
        if ARGV[11] == '' then return {1, 0} end
        return {1, redis.call('PUBLISH', ARGV[10], ARGV[11])}
        """

    public func append(_ entry: FencedEntry) throws(CoordinationError) -> FenceAnswer {
        guard entry.token > 0 else { throw .invalidArgument("a fenced entry needs a token") }
        let room = entry.room, drawId = entry.drawId ?? ""
        var change = "keep", seed: [UInt8] = [], shown: [UInt8] = [], node: [UInt8] = []
        let escrowKey = keyspace.escrowKey(room: room), viewKey = keyspace.viewKey(room: room)
        switch entry.escrow {
        case .keep: break
        case .deposit(let draw):
            guard draw.drawId == drawId else { throw .invalidArgument("an escrow deposit of another draw") }
            change = "deposit"
            seed = seal.encrypt(Array(draw.seedHex.utf8), key: escrowKey, field: SealedFields.escrow("seed", drawId))
            shown = seal.seal(Array(String(draw.roundsShown).utf8), key: escrowKey,
                              field: SealedFields.escrow("roundsShown", drawId))
            node = seal.seal(Array(draw.node.utf8), key: escrowKey, field: SealedFields.escrow("node", drawId))
        case .clear: change = "clear"
        case .takeOver(let id):
            guard id == drawId else { throw .invalidArgument("a takeover of another draw") }
            change = "take"
        }
        let keys = [keyspace.fenceKey(room: room), viewKey, keyspace.viewRoundsKey(room: room),
                    escrowKey, keyspace.drawEndKey(drawId: drawId), keyspace.scheduledKey(drawId: drawId),
                    keyspace.scheduledClaimKey(drawId: drawId), keyspace.scheduledIndexKey]
        var arguments: [[UInt8]] = [Array("EVAL".utf8), Array(Self.appendScript.utf8), Array(String(keys.count).utf8)]
        arguments += keys.map { Array($0.utf8) }
        arguments += [String(entry.token), entry.kind, drawId, String(entry.index ?? -1)].map { Array($0.utf8) }
        arguments.append(sealedViewPart(entry, drawId: drawId))
        arguments += [Array(change.utf8), seed, shown, node, Array(keyspace.eventChannel(room: room).utf8)]
        // An empty end stays empty: the script tells an end by a non-empty one.
        let end = entry.endWire.map { $0.isEmpty ? $0 : seal.seal($0, key: viewKey, field: SealedFields.endWire(drawId)) }
        arguments += [entry.payload, end ?? [], Array((entry.sequence.map { String($0) } ?? "").utf8)]
        return try Self.answer(connection.coordinate(arguments), open: openEnd(room: room))
    }

    /// The entry's view part sealed for where the script puts it (`appendScript`'s rules): a
    /// `started` event's `head`, a `finished` one's `lastResult`, a round's place in the rounds
    /// list, a per-winner round's `progress`. An empty part stays empty (the script skips it).
    private func sealedViewPart(_ entry: FencedEntry, drawId: String) -> [UInt8] {
        guard !entry.viewPart.isEmpty else { return [] }
        let view = keyspace.viewKey(room: entry.room)
        switch (entry.kind, entry.index) {
        case ("started", _): return seal.seal(entry.viewPart, key: view, field: SealedFields.head(drawId))
        case ("finished", _): return seal.seal(entry.viewPart, key: view, field: SealedFields.lastResult)
        case ("round", nil): return seal.seal(entry.viewPart, key: view, field: SealedFields.progress(drawId))
        case ("round", let index?):
            return seal.seal(entry.viewPart, key: keyspace.viewRoundsKey(room: entry.room), field: SealedFields.round(drawId, index))
        default: return entry.viewPart
        }
    }

    /// Opens the end a refused entry's answer carries (the view's `endWire`); `nil` when its
    /// seal is wrong, so no forged end is shown.
    private func openEnd(room: String) -> (StoredDrawEnd) -> StoredDrawEnd? {
        let view = keyspace.viewKey(room: room)
        return { [seal] end in
            seal.open(end.wire, key: view, field: SealedFields.endWire(end.drawId), kind: .view)
                .map { StoredDrawEnd(drawId: end.drawId, wire: $0) }
        }
    }

    /// What `appendScript`'s `reply` says; anything else is an unexpected reply. A draw's end
    /// it carries goes through `open` (a sealed one is opened; one refused is no end).
    static func answer(_ reply: RedisReply, open: (StoredDrawEnd) -> StoredDrawEnd? = { $0 })
        throws(CoordinationError) -> FenceAnswer {
        guard case .array(let parts) = reply, case .integer(let code)? = parts.first else {
            throw .unexpectedReply("the fenced append answered \(reply)")
        }
        func end() -> StoredDrawEnd? {
            guard parts.count == 4, let id = parts[2].text, case .string(let wire) = parts[3], !id.isEmpty else { return nil }
            return open(StoredDrawEnd(drawId: id, wire: wire))
        }
        switch code {
        case 1:
            guard parts.count == 2, case .integer(let n) = parts[1], let receivers = Int(exactly: n), receivers >= 0 else {
                throw .unexpectedReply("the fenced append answered \(reply)")
            }
            return .accepted(receivers: receivers)
        case 0:
            guard parts.count == 4, case .integer(let newest) = parts[1], newest > 0 else {
                throw .unexpectedReply("the fenced append answered \(reply)")
            }
            return .refused(newest: UInt64(newest), end: end())
        case 2:
            return .alreadyEnded(end: end())
        default:
            throw .unexpectedReply("the fenced append answered \(reply)")
        }
    }

    public func escrowed(room: String) throws(CoordinationError) -> EscrowedDraw? {
        let key = keyspace.escrowKey(room: room)
        let reply = try connection.coordinate(["HMGET", key, "drawId", "seed", "roundsShown", "node"], idempotent: true)
        return try Self.escrow(from: reply, seal: seal, key: key)
    }

    /// The escrow an `HMGET` of its fields answered: `nil` when there is none or it is unreadable
    /// (a field missing, a count shown that is no count: negative, or no `Int`), as a deposit
    /// this code wrote never is, or when `seal` refuses a part (a wrong seal: a forged escrow is
    /// none, so no takeover resumes a seed nobody deposited); the takeover counts rounds with it.
    static func escrow(from reply: RedisReply, seal: StoredSeal = .plain, key: String = "") throws(CoordinationError) -> EscrowedDraw? {
        guard case .array(let f) = reply, f.count == 4 else { throw .unexpectedReply("the escrow answered \(reply)") }
        guard let drawId = f[0].text, let sealedSeed = f[1].bytes, let sealedShown = f[2].bytes,
              let sealedNode = f[3].bytes else { return nil }
        func text(_ bytes: [UInt8]?) -> String? { bytes.flatMap { String(validating: $0, as: UTF8.self) } }
        guard let seed = text(seal.decrypt(sealedSeed, key: key, field: SealedFields.escrow("seed", drawId), kind: .escrow)),
              let shown = text(seal.open(sealedShown, key: key, field: SealedFields.escrow("roundsShown", drawId), kind: .escrow))
                .flatMap(Int.init), shown >= 0,
              let node = text(seal.open(sealedNode, key: key, field: SealedFields.escrow("node", drawId), kind: .escrow))
        else { return nil }
        return EscrowedDraw(drawId: drawId, seedHex: seed, roundsShown: shown, node: node)
    }
}
