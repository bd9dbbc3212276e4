import DrawCore
import DrawPresentation

/// Rooms: applying bus events, presence, snapshots. Service thread only.
extension RoomBroadcaster {
    /// The bus subscriber: apply the event to the room's state, make it durable where the draw's
    /// truth lives (`DrawStepLog`: at once on one node; in cluster mode once Redis acknowledged
    /// its fenced entry, which also sent it to the other nodes), then fan it out — except a
    /// `loading`, which waits `loadingNoticeMs` and is dropped if the next event comes first.
    /// This is this node's presentation choice, so a cluster changes nothing here.
    func deliver(_ event: DrawEvent, to room: Room) {
        keepEntrants(of: event, in: room)
        let bytes = room.apply(event)
        steps.append(event, wire: bytes, from: room) { [unowned self, unowned room] in
            shown(event, bytes, in: room)
        }
        // Whatever the event, the room may have gone from in use to idle or back. Not between the
        // last winner's reveal and `finished`, which follows at once: the session is idle by then,
        // and a cluster lease given back in between would keep the result from every viewer.
        if !Self.isLastReveal(event) { directory.roomActivity(room) }
    }

    /// A step of the draw running here is durable: its viewers see it now.
    private func shown(_ event: DrawEvent, _ bytes: [UInt8], in room: Room) {
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
            room.holdLoading(bytes)
            loadingTimer(of: room).schedule(afterNanos: UInt64(config.loadingNoticeMs) * 1_000_000)
            return
        }
        if room.takeHeldLoading() != nil { room.loadingTimer?.cancel() }
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

    private static func isLastReveal(_ event: DrawEvent) -> Bool {
        if case .winner(_, _, _, .finished) = event { return true }
        return false
    }

    private static func isLoading(_ event: DrawEvent) -> Bool {
        if case .loading = event { return true }
        return false
    }

    /// The loading notice timer fired: the players are still loading, so say so.
    func releaseLoading(_ room: Room) {
        guard let bytes = room.takeHeldLoading() else { return }
        broadcast(bytes, in: room)
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
        directory.roomActivity(room)
        heartbeatHeard(in: room, broadcast: false)
        shared.viewersChanged(room)
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
        let parts = shared.snapshotParts(of: room) ?? room.snapshotParts()
        let bytes = WireMessages.snapshot(room: room.name, viewers: room.shownViewers, serverTime: clock.epochMillis(),
                                          draw: parts.draw, lastResult: parts.lastResult,
                                          info: room.info(defaults: config.schedule),
                                          asMessage: asMessage)
        guard version == .v1 else { return bytes }
        // v1 carries the lists: those of this node's draws are encoded now if they dropped out.
        if case .running(let plan, _, _) = room.current { entrantLists.list(for: plan) }
        if let last = room.lastResult { entrantLists.list(for: last.plan) }
        return WireMessages.v1(bytes, entrants: entrantLists.json(drawId:)) ?? bytes
    }
}

extension RoomBroadcaster {
    /// The timer that sends the room's coalesced `presence`, made on the first viewer change.
    func presenceTimer(of room: Room) -> any ServiceTimer {
        timer(\.presenceTimer, of: room, firing: { [unowned self, unowned room] in self.sendPresence(room) })
    }

    /// The timer that releases a held-back `loading`, made on the first draw that holds one.
    func loadingTimer(of room: Room) -> any ServiceTimer {
        timer(\.loadingTimer, of: room, firing: { [unowned self, unowned room] in self.releaseLoading(room) })
    }

    /// The timer in `slot`, made with `action` the first time (the action is only built then).
    private func timer(_ slot: ReferenceWritableKeyPath<Room, (any ServiceTimer)?>, of room: Room,
                       firing action: @autoclosure () -> () -> Void) -> any ServiceTimer {
        if let timer = room[keyPath: slot] { return timer }
        precondition(loop.isRunning, "rooms are used while the server runs")
        let timer = loop.makeTimer(action())
        room[keyPath: slot] = timer
        return timer
    }
}
