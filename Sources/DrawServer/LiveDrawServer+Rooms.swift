import DrawCore
import DrawPresentation

/// Rooms: creation, starting draws, applying bus events, presence. Service thread only.
extension LiveDrawServer {
    /// Creates a room (`POST /api/rooms`). A `nil` name gets a generated one.
    func createRoom(named requested: String?) -> Result<(room: String, hostKey: String), ClientErrorCode> {
        guard rooms.count < config.maxRooms else { return .failure(.tooManyRooms) }
        let name: String
        if let requested {
            guard RoomName.isValid(requested) else { return .failure(.badRoomName) }
            guard rooms[requested] == nil else { return .failure(.roomExists) }
            name = requested
        } else {
            guard let generated = generateRoomName() else { return .failure(.internalError) }
            name = generated
        }
        let key = HostKey.generate(using: random)
        _ = makeRoom(name: name, hostKey: key)
        logger.info("room created", metadata: ["room": "\(name)"])
        return .success((name, key))
    }

    private func generateRoomName() -> String? {
        for _ in 0..<8 {
            let name = "room-" + Hex.encode(random.bytes(5))
            if rooms[name] == nil { return name }
        }
        return nil
    }

    /// Builds a room with its runner, timers and bus subscription.
    @discardableResult
    func makeRoom(name: String, hostKey: String) -> Room {
        guard let server = lws else { preconditionFailure("rooms are made while the server runs") }
        let room = Room(name: name, hostKey: hostKey, outboundQueueLimit: config.outboundQueueLimit,
                        presenceIntervalMs: config.presenceIntervalMs)
        let inbox = self.inbox, load = self.loadPlayers
        let deps = DrawRunner.Dependencies(
            bus: bus, clock: clock, planner: PlanDraw(random: random, schedule: config.schedule),
            metrics: metrics, logger: logger, random: random, sources: sources,
            beginLoading: { room, attempt in
                // Rule 2: loading runs off the service thread; its result comes back by the inbox.
                Task.detached {
                    let result: Result<MergeResult, DrawError>
                    do throws(DrawError) { result = .success(try await load()) } catch { result = .failure(error) }
                    inbox.post(.playersLoaded(room: room, attempt: attempt, result))
                }
            },
            record: recorder(room: name))
        let runner = DrawRunner(room: name, dependencies: deps)
        runner.timer = LwsTimer(server: server, gate: timerGate) { [unowned runner] in runner.timerFired() }
        room.runner = runner
        room.presenceTimer = LwsTimer(server: server, gate: timerGate) { [unowned self, unowned room] in
            self.sendPresence(room)
        }
        room.loadingTimer = LwsTimer(server: server, gate: timerGate) { [unowned self, unowned room] in
            self.releaseLoading(room)
        }
        bus.subscribe(room: name) { [unowned self, unowned room] event in
            self.deliver(event, to: room)
        }
        rooms[name] = room
        metrics.rooms.record(rooms.count)
        return room
    }

    /// The bus subscriber: apply the event to the room's state, then fan it out — except a
    /// `loading`, which waits `loadingNoticeMs` and is dropped if the next event comes first.
    /// This is this node's presentation choice, so a networked bus changes nothing here.
    func deliver(_ event: DrawEvent, to room: Room) {
        let bytes = room.apply(event)
        if case .loading = event, config.loadingNoticeMs > 0 {
            room.heldLoading = bytes
            room.loadingTimer?.schedule(afterNanos: UInt64(config.loadingNoticeMs) * 1_000_000)
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
        guard HostKey.matches(hostKey, room.hostKey) else { return .forbidden }
        guard !shuttingDown else { return .shuttingDown }
        return room.runner.start() ? nil : .drawRunning
    }

    /// A viewer joined or left: arm the room's coalescing presence timer (if not armed).
    ///
    /// Not while a draw runs: its rounds carry the count, so a `presence` fan-out never competes
    /// with a flip. With thousands of viewers one fan-out fills most of a round's interval, and a
    /// `presence` in between delays every later round (measured in issue 7's benchmark).
    func viewersChanged(_ room: Room) {
        guard !shuttingDown, !destroying, !room.isRunning else { return }
        if let delay = room.presence.countChanged(viewers: room.viewers, nowNanos: clock.monotonicNanos()) {
            room.presenceTimer?.schedule(afterNanos: delay)
        }
    }

    /// The presence timer fired: broadcast the latest count if it changed — unless a draw
    /// started meanwhile, whose rounds carry it (and whose end re-arms the timer).
    func sendPresence(_ room: Room) {
        guard !shuttingDown, !destroying else { return }
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
