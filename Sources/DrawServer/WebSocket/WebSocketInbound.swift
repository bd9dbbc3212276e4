import DrawCore
import DrawPresentation
import DrawTransport
import Logging

/// WebSocket clients coming in: upgrade checks (`+Upgrade`), join, messages, limits and strikes,
/// close; their input is read and framed in `+Input`. What goes out to them is the
/// `ClientWriter`'s (one client) and the `RoomBroadcaster`'s (a room's fan-out). Service thread only.
final class WebSocketInbound {
    let config: ServerConfig
    let clock: any DrawClock
    let logger: Logger
    let metrics: ServerMetrics
    unowned let loop: ServiceLoop
    unowned let directory: RoomDirectory
    unowned let broadcaster: RoomBroadcaster
    unowned let draws: DrawCoordinator
    unowned let writer: ClientWriter
    /// Every connected client.
    private(set) var clients: [ObjectIdentifier: ClientConnection] = [:]
    /// Where WebSocket input is read to, for one connection at a time (`readable`): the size of
    /// the largest TLS record, so one read takes a whole record.
    let inputScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
    /// Who is silent too long (`+Idle`).
    var idle: IdleTracker<ObjectIdentifier>
    /// Sweeps `idle`; made with the first client.
    var idleTimer: LoopTimer?

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, metrics: ServerMetrics,
         loop: ServiceLoop, directory: RoomDirectory, broadcaster: RoomBroadcaster, draws: DrawCoordinator,
         writer: ClientWriter) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.loop = loop
        self.directory = directory
        self.broadcaster = broadcaster
        self.draws = draws
        self.writer = writer
        idle = Self.idleTracker(config)
    }

    deinit { inputScratch.deallocate() }

    var phase: ServerPhase { loop.phase }

    /// ESTABLISHED: the client joins its room and gets its snapshot first.
    func established(_ connection: Connection, slot: SessionSlot) {
        release(slot) // an HTTP exchange left from an earlier keep-alive request
        let client = ClientConnection(connection: connection,
                                      version: WireVersion(chosenProtocol: connection.protocolName),
                                      bucket: TokenBucket(ratePerSecond: config.rateLimitPerSecond,
                                                          burst: config.rateLimitBurst),
                                      maxMessageBytes: config.maxMessageBytes)
        slot.attach(client, kind: .webSocket)
        clients[ObjectIdentifier(client)] = client
        metrics.viewers.record(clients.count)
        heard(client)

        // First, so that even the closes below read the client's answer.
        guard takeOverInput(client) else {
            logger.error("cannot watch a WebSocket's input; closing it")
            writer.close(client, code: CloseCode.internalError, reason: "server error", drainRoom: false)
            return
        }
        if phase.shuttingDown {
            writer.close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: false)
            return
        }
        let path = connection.uri ?? ""
        let name = path.hasPrefix("/ws/") ? String(path.dropFirst(4)) : ""
        // A room not in memory is loaded from the store first; the client waits, in no room.
        directory.withRoom(named: name, forViewer: true) { [unowned self] found in self.join(client, found) }
    }

    /// The client's room was found (or not): join it and send the snapshot first, or say why not
    /// and close. A client that went away while its room loaded is left alone.
    private func join(_ client: ClientConnection, _ found: Result<Room, ClientErrorCode>) {
        guard clients[ObjectIdentifier(client)] === client, client.closing == nil, client.room == nil else { return }
        let room: Room
        switch found {
        case .success(let r):
            room = r
        case .failure(let code) where code == .unknownRoom:
            writer.sendPrivate(WireMessages.error(.unknownRoom), to: client)
            writer.close(client, code: CloseCode.unknownRoom, reason: "unknown room", drainRoom: false)
            return
        case .failure(.shuttingDown):
            writer.close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: false)
            return
        case .failure(let code):
            // busy, storage unavailable, memory full: the room may well exist; try again later.
            writer.sendPrivate(WireMessages.error(code), to: client)
            writer.close(client, code: CloseCode.tryAgainLater, reason: "try again later", drainRoom: false)
            return
        }
        // A step of the room's draw is on its way to the record (cluster mode: Redis has not
        // acknowledged it yet): the snapshot would show it before it is durable, so the joiner
        // waits for the answer, as the draw's viewers do.
        if broadcaster.steps.isAppending(room.name) {
            return broadcaster.steps.whenAppended(room.name) { [unowned self] _ in join(client, found) }
        }
        room.add(client)
        // The snapshot describes the room up to the ring's current end; the cursor starts
        // there, so every later broadcast follows it, in order, with nothing missing.
        writer.sendPrivate(broadcaster.snapshot(of: room, asMessage: true, version: client.version), to: client)
        broadcaster.viewersChanged(room)
    }

    /// RECEIVE: input lws parsed itself, which it no longer does once `takeOverInput` ran — except
    /// for a connection whose input could not be taken over. Nothing here is trusted (lws
    /// checked no mask, and its lengths are the peer's): the connection is failed with 1002,
    /// without arithmetic on anything the peer sent.
    func received(_ client: ClientConnection) {
        writer.close(client, code: CloseCode.protocolError, reason: "unexpected input", drainRoom: false)
    }

    /// One complete client message: rate limit, then `ping` / `start`, else an error and a strike.
    func handleMessage(_ bytes: [UInt8], binary: Bool, from client: ClientConnection) {
        guard client.bucket.take(nowNanos: clock.monotonicNanos()) else { return reject(.rateLimited, client) }
        guard !binary else { return reject(.binaryNotSupported, client) }
        switch ClientMessage.parse(bytes) {
        case .failure(let code):
            reject(code, client)
        case .success(.ping(let id)):
            writer.sendPrivate(WireMessages.pong(id: id, serverTime: clock.epochMillis()), to: client)
        case .success(.start(let hostKey, let reveal)):
            guard let room = client.room else { return reject(.unknownRoom, client) }
            draws.startDraw(in: room, hostKey: hostKey, reveal: reveal) { [unowned self] refusal in
                // In cluster mode the answer comes later: the client may have gone meanwhile.
                if let refusal, clients[ObjectIdentifier(client)] != nil { reject(refusal, client) }
            }
        case .success(.nextWinner(let hostKey)):
            guard let room = client.room else { return reject(.unknownRoom, client) }
            draws.nextWinner(in: room, hostKey: hostKey) { [unowned self] refusal in
                if let refusal, clients[ObjectIdentifier(client)] != nil { reject(refusal, client) }
            }
        case .success(.redraw(let hostKey, let drawId, let userId)):
            guard let room = client.room else { return reject(.unknownRoom, client) }
            guard let drawId, let userId else { return reject(.badJSON, client) }
            draws.redraw(in: room, hostKey: hostKey, drawId: drawId, userId: userId) { [unowned self] refusal in
                if let refusal, clients[ObjectIdentifier(client)] != nil { reject(refusal, client) }
            }
        }
    }

    /// An `error` message and a strike; at `maxStrikes`, close with 1008.
    private func reject(_ code: ClientErrorCode, _ client: ClientConnection) {
        writer.sendPrivate(WireMessages.error(code), to: client)
        client.strikes += 1
        if client.strikes >= config.maxStrikes {
            writer.close(client, code: CloseCode.policyViolation, reason: "too many bad messages", drainRoom: false)
        }
    }

    /// Releases what the connection's slot holds: an HTTP exchange is dropped, a client closed.
    /// Any of a connection's last callbacks may call it; only the first finds anything.
    func release(_ slot: SessionSlot?) {
        guard let slot else { return }
        switch slot.kind {
        case .http: _ = slot.take(.http, as: HTTPExchange.self)
        case .webSocket: if let client = slot.take(.webSocket, as: ClientConnection.self) { closed(client) }
        case .none: break
        }
    }

    /// CLOSED: stop reading (before lws closes the socket), leave the room, forget the client.
    private func closed(_ client: ClientConnection) {
        stopReading(client)
        broadcaster.leaveRoom(client)
        writer.forgetClosing(client)
        clients[ObjectIdentifier(client)] = nil
        idle.forget(ObjectIdentifier(client))
        metrics.viewers.record(clients.count)
        // Not while shutdown still waits for the records: `run()` closes the store right after.
        if phase.closingClients && clients.isEmpty { loop.exitRequested = true }
    }

    /// Forgets every client (teardown).
    func removeAll() {
        clients.removeAll()
        idle = Self.idleTracker(config)
        idleTimer = nil
    }
}
