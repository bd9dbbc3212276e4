import DrawCore
import DrawPresentation

/// Rooms: starting draws, applying bus events, presence. Service thread only. (Creating and
/// freeing rooms: `RoomService.swift`.)
extension RoomService {
    /// The bus subscriber: apply the event to the room's state, then fan it out — except a
    /// `loading`, which waits `loadingNoticeMs` and is dropped if the next event comes first.
    /// This is this node's presentation choice, so a networked bus changes nothing here.
    /// In cluster mode the event also goes to the other nodes with viewers in the room.
    func deliver(_ event: DrawEvent, to room: Room) {
        // Whatever the event, the room may have gone from in use to idle or back.
        defer { roomActivity(room) }
        keepEntrants(of: event, in: room)
        let bytes = room.apply(event)
        if cluster != nil { publishToCluster(event, wire: bytes, room: room) }
        show(bytes, loading: Self.isLoading(event), in: room)
        switch event {
        case .round:
            // The round carried the count (see `viewersChanged`).
            room.presence.carried(count: room.shownViewers, nowNanos: clock.monotonicNanos())
        case .finished, .aborted:
            // Counts were only carried by rounds: send what changed after the last one.
            viewersChanged(room)
        default:
            break
        }
    }

    /// Fans out one draw message, holding a `loading` back for `loadingNoticeMs` (a later message
    /// replaces it), whether the draw runs here or on another node.
    func show(_ bytes: [UInt8], loading: Bool, in room: Room) {
        if loading, config.loadingNoticeMs > 0 {
            room.heldLoading = bytes
            loadingTimer(of: room).schedule(afterNanos: UInt64(config.loadingNoticeMs) * 1_000_000)
            return
        }
        if room.heldLoading != nil {
            room.heldLoading = nil
            room.loadingTimer?.cancel()
        }
        broadcast(bytes, in: room)
    }

    /// A draw's list is encoded once, when its plan goes public, for the entrants endpoint (and
    /// the other nodes, in cluster mode); again at its end only if it dropped out and v1 clients
    /// need it in their `finished`.
    private func keepEntrants(of event: DrawEvent, in room: Room) {
        switch event {
        case .started(let plan, _): entrantLists.list(for: plan)
        case .finished(let plan, _, _) where room.v1Members > 0: entrantLists.list(for: plan)
        default: break
        }
    }

    private static func isLoading(_ event: DrawEvent) -> Bool {
        if case .loading = event { return true }
        return false
    }

    /// The loading notice timer fired: the players are still loading, so say so.
    func releaseLoading(_ room: Room) {
        guard let bytes = room.heldLoading else { return }
        room.heldLoading = nil
        broadcast(bytes, in: room)
    }

    /// Starts a draw after checking the host key in constant time; `answer` gets `nil` when it
    /// is accepted. Alone, it answers at once; in cluster mode once the room's lease is taken
    /// (`RoomService+Cluster`).
    func startDraw(in room: Room, hostKey: String?, then answer: @escaping (ClientErrorCode?) -> Void) {
        if cluster != nil { return startClusterDraw(in: room, hostKey: hostKey, then: answer) }
        if let refusal = refuseStart(in: room, hostKey: hostKey) { return answer(refusal) }
        guard startRunner(of: room) else { return answer(.drawRunning) }
        touch(room)
        answer(nil)
    }

    /// The checks before any start: the host key in constant time, then the server's state.
    func refuseStart(in room: Room, hostKey: String?) -> ClientErrorCode? {
        guard let hostKey, !hostKey.isEmpty else { return .unauthorized }
        guard room.keyHash.matches(hostKey) else { return .forbidden }
        guard !phase.shuttingDown else { return .shuttingDown }
        guard !phase.draining else { return .draining }
        guard !room.deleting else { return .unknownRoom }
        // A list or settings change on its way to the store: the draw would not know which it gets.
        guard !room.changing else { return .drawRunning }
        return nil
    }

    /// A viewer joined or left: arm the room's coalescing presence timer (if not armed).
    ///
    /// Not while a draw runs: its rounds carry the count, so a `presence` fan-out never competes
    /// with a flip. With thousands of viewers one fan-out fills most of a round's interval, and a
    /// `presence` in between delays every later round (measured in issue 7's benchmark).
    /// Every join and leave comes through here, so this is also where the room's idleness is
    /// re-read (`RoomRegistry`).
    func viewersChanged(_ room: Room) {
        guard !loop.destroying else { return }
        roomActivity(room)
        heartbeatHeard(in: room, broadcast: false)
        cluster?.watch(room: room.name, viewers: room.viewers)
        guard !phase.shuttingDown, !room.isRunning else { return }
        if let delay = room.presence.countChanged(viewers: room.shownViewers, nowNanos: clock.monotonicNanos()) {
            presenceTimer(of: room).schedule(afterNanos: delay)
        }
    }

    /// The presence timer fired: broadcast the latest count if it changed — unless a draw
    /// started meanwhile, whose rounds carry it (and whose end re-arms the timer).
    func sendPresence(_ room: Room) {
        guard !phase.shuttingDown, !loop.destroying else { return }
        if room.isRunning {
            room.presence.skipped()
            return
        }
        if let count = room.presence.fire(count: room.shownViewers, nowNanos: clock.monotonicNanos()) {
            broadcast(WireMessages.presence(viewers: count), in: room)
        }
    }

    /// The snapshot a joining client gets first (and `GET /api/rooms/ROOM`, without `type`, in
    /// the latest version), for a client speaking `version`.
    func snapshot(of room: Room, asMessage: Bool, version: WireVersion = .latest) -> [UInt8] {
        // In cluster mode a draw run by another node comes from the shared view; otherwise the
        // draw and last result are encoded once per change and shared by every joiner (join
        // storms, issue 17). Only viewers, time and the room's info are per snapshot.
        let parts = (cluster != nil ? remoteSnapshotParts(of: room) : nil) ?? room.snapshotParts()
        let bytes = WireMessages.snapshot(room: room.name, viewers: room.shownViewers, serverTime: clock.epochMillis(),
                                          draw: parts.draw, lastResult: parts.lastResult, info: info(of: room),
                                          asMessage: asMessage)
        guard version == .v1 else { return bytes }
        // v1 carries the lists: those of this node's draws are encoded now if they dropped out.
        if case .running(let plan, _, _) = room.current { entrantLists.list(for: plan) }
        if let last = room.lastResult { entrantLists.list(for: last.plan) }
        return WireMessages.v1(bytes, entrants: entrantLists.json(drawId:)) ?? bytes
    }
}

extension RoomService {
    /// A draw's players came back from their loading task (through the inbox).
    func playersLoaded(room name: String, attempt: UInt64, _ result: Result<MergeResult, DrawError>) {
        registry[name]?.runner?.playersLoaded(attempt: attempt, result)
        roomActivity(name)
    }

    /// Whether a recorded write changes the draw's history line (rounds only move `roundsShown`,
    /// which the end carries): each of those is shared with the cluster.
    static func changesHistoryLine(_ write: DrawWrite) -> Bool {
        switch write {
        case .started, .startedAt, .finish, .failed: return true
        case .round: return false
        }
    }

    /// A draw write came back from the storage thread (through the inbox).
    func recorded(room name: String, _ write: DrawWrite, error: StorageError?) {
        registry[name]?.runner?.recorded(write, error: error)
        if cluster != nil, error == nil, Self.changesHistoryLine(write) { shareRecord(write.drawId, room: name) }
        roomActivity(name)
    }
}
