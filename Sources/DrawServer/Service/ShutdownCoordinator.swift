import Logging

/// Graceful shutdown. Service thread only (reached through `stop()` → inbox → here).
///
/// Two phases, each bounded by `shutdownGraceMs`:
/// 1. Records: running draws are aborted (`aborted` broadcast, seed revealed) and their
///    `finish(.aborted(server_shutdown))` queued; then the server waits for the storage queue to
///    drain (a barrier job). Meanwhile a result already being written is still announced, and
///    nothing new is accepted. Skipped without a store.
/// 2. Clients: every client is closed with 1001 after it got what it is owed; the loop ends when
///    they are gone. `run()` then closes the store.
///
/// The progress is `ServerPhase`, which this type alone writes.
final class ShutdownCoordinator {
    private let config: ServerConfig
    private let logger: Logger
    private unowned let loop: ServiceLoop
    private unowned let rooms: RoomService
    private unowned let webSockets: WebSocketInbound
    private unowned let storage: ServerStorage
    /// Phase 1: the storage queue is draining; clients are closed after it.
    private var awaitingStorageDrain = false
    /// One timer for both phases (a timer must not replace itself from its own callback).
    private var timer: LwsTimer?

    init(config: ServerConfig, logger: Logger, loop: ServiceLoop, rooms: RoomService,
         webSockets: WebSocketInbound, storage: ServerStorage) {
        self.config = config
        self.logger = logger
        self.loop = loop
        self.rooms = rooms
        self.webSockets = webSockets
        self.storage = storage
    }

    private var phase: ServerPhase { loop.phase }

    func begin() {
        guard !phase.shuttingDown, !loop.destroying else { return }
        logger.info("shutting down", metadata: ["clients": "\(webSockets.clients.count)", "rooms": "\(rooms.registry.count)"])
        // Aborts first: they are room broadcasts, so every client drains them before its close.
        for room in rooms.registry.all { room.runner?.shutdown() }
        phase.shuttingDown = true
        guard loop.isRunning else { return }
        timer = loop.timer { [unowned self] in self.timerFired() }
        if storage.awaitDrain() {
            awaitingStorageDrain = true
            timer?.schedule(afterNanos: graceNanos)
        } else {
            closeClients()
        }
    }

    /// The barrier came back: every record queued before shutdown is written (or failed).
    func storageDrained() {
        guard awaitingStorageDrain else { return }
        awaitingStorageDrain = false
        closeClients()
    }

    /// Frees the timer (teardown, after the gate cancelled it).
    func tearDown() { timer = nil }

    private var graceNanos: UInt64 { UInt64(max(0, config.shutdownGraceMs)) * 1_000_000 }

    private func closeClients() {
        phase.closingClients = true
        let graceSeconds = Int32(clamping: max(1, (max(0, config.shutdownGraceMs) + 999) / 1000))
        for client in Array(webSockets.clients.values) {
            rooms.close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: true,
                        deadlineSeconds: graceSeconds)
        }
        if webSockets.clients.isEmpty {
            loop.exitRequested = true
            return
        }
        timer?.schedule(afterNanos: graceNanos)
    }

    private func timerFired() {
        if awaitingStorageDrain {
            awaitingStorageDrain = false
            logger.warning("the draw store did not finish its writes within the shutdown grace period",
                           metadata: ["queued": "\(storage.pending)"])
            closeClients()
            return
        }
        if !webSockets.clients.isEmpty {
            logger.info("shutdown grace period over", metadata: ["clients": "\(webSockets.clients.count)"])
        }
        loop.exitRequested = true
    }
}
