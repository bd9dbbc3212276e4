import DrawCore
import DrawPresentation

/// Rooms: starting draws, applying bus events, presence. Service thread only. (Creating and
/// freeing rooms: `RoomService.swift`.)
extension RoomService {
    /// The bus subscriber: apply the event to the room's state, then fan it out — except a
    /// `loading`, which waits `loadingNoticeMs` and is dropped if the next event comes first.
    /// This is this node's presentation choice, so a networked bus changes nothing here.
    func deliver(_ event: DrawEvent, to room: Room) {
        // Whatever the event, the room may have gone from in use to idle or back.
        defer { roomActivity(room) }
        let bytes = room.apply(event)
        if case .loading = event, config.loadingNoticeMs > 0 {
            room.heldLoading = bytes
            loadingTimer(of: room).schedule(afterNanos: UInt64(config.loadingNoticeMs) * 1_000_000)
            return
        }
        if room.heldLoading != nil {
            room.heldLoading = nil
            room.loadingTimer?.cancel()
        }
        broadcast(bytes, in: room)
        switch event {
        case .round:
            // The round carried the count (see `viewersChanged`).
            room.presence.carried(count: room.viewers, nowNanos: clock.monotonicNanos())
        case .finished, .aborted:
            // Counts were only carried by rounds: send what changed after the last one.
            viewersChanged(room)
        default:
            break
        }
    }

    /// The loading notice timer fired: the players are still loading, so say so.
    func releaseLoading(_ room: Room) {
        guard let bytes = room.heldLoading else { return }
        room.heldLoading = nil
        broadcast(bytes, in: room)
    }

    /// Starts a draw after checking the host key in constant time. `nil` means accepted.
    func startDraw(in room: Room, hostKey: String?) -> ClientErrorCode? {
        guard let hostKey, !hostKey.isEmpty else { return .unauthorized }
        guard room.keyHash.matches(hostKey) else { return .forbidden }
        guard !phase.shuttingDown else { return .shuttingDown }
        guard !phase.draining else { return .draining }
        guard !room.deleting else { return .unknownRoom }
        guard runner(of: room).start() else { return .drawRunning }
        touch(room)
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
        guard !phase.shuttingDown, !room.isRunning else { return }
        if let delay = room.presence.countChanged(viewers: room.viewers, nowNanos: clock.monotonicNanos()) {
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
        if let count = room.presence.fire(count: room.viewers, nowNanos: clock.monotonicNanos()) {
            broadcast(WireMessages.presence(viewers: count), in: room)
        }
    }

    /// The snapshot a joining client gets first (and `GET /api/rooms/ROOM`, without `type`).
    func snapshot(of room: Room, asMessage: Bool) -> [UInt8] {
        WireMessages.snapshot(room.view(), serverTime: clock.epochMillis(), asMessage: asMessage)
    }
}

extension RoomService {
    /// A draw's players came back from their loading task (through the inbox).
    func playersLoaded(room name: String, attempt: UInt64, _ result: Result<MergeResult, DrawError>) {
        registry[name]?.runner?.playersLoaded(attempt: attempt, result)
        roomActivity(name)
    }

    /// A draw write came back from the storage thread (through the inbox).
    func recorded(room name: String, _ write: DrawWrite, error: StorageError?) {
        registry[name]?.runner?.recorded(write, error: error)
        roomActivity(name)
    }
}
