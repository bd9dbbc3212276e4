import DrawCore
import DrawTransport
import Logging

/// Graceful shutdown. Service thread only (reached through `drain()`/`stop()` → inbox → here).
///
/// Draining comes first when asked for (`drain()`, the first SIGTERM): no new draw starts, and
/// `/healthz` says `draining` so a load balancer stops sending viewers; running draws go on, up to
/// `shutdownGraceMs`. When the last has ended (its record written), or the grace period is
/// over, or `stop()` comes (the second signal), the stop below begins and aborts whatever still runs.
///
/// The stop has two phases, each bounded by `closeGraceMs`:
/// 1. Records: running draws are aborted (`aborted` broadcast, seed revealed) and their
///    `finish(.aborted(server_shutdown))` queued; then the server waits for those writes, the
///    history lines they and every earlier write owe the cluster (acknowledged by Redis), and
///    the storage work that follows (`RecordsDrain`). Meanwhile a result already being written
///    is still announced, and nothing new is accepted. Skipped without a store.
/// 2. Clients: every client is closed with 1001 after it got what it is owed; the loop ends when
///    they are gone. `run()` then closes the store.
///
/// The progress is `ServerPhase`, which this type alone writes.
final class ShutdownCoordinator {
    private let config: ServerConfig
    private let logger: Logger
    private unowned let loop: ServiceLoop
    private let clock: any DrawClock
    private unowned let directory: RoomDirectory
    private unowned let writer: ClientWriter
    private unowned let webSockets: WebSocketInbound
    private unowned let storage: ServerStorage
    /// The lines this node owes the cluster's history (`nil`: one node, or no store).
    private let history: (any OwedHistory)?
    /// Phase 1, while it runs; clients are closed after it.
    private var records: RecordsDrain?
    /// Phase 2's bound (phase 1 has its own, in `RecordsDrain`).
    private var timer: LoopTimer?
    /// Draining: the timer that looks whether the draws have ended, and when the grace ends
    /// (monotonic nanoseconds). `nil` when not draining.
    private var drainTimer: LoopTimer?
    private var drainDeadline: UInt64?
    /// Draining: the rooms that were busy when it began (no other room can become busy then).
    private var drainingRooms: [Room] = []

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, loop: ServiceLoop, directory: RoomDirectory,
         writer: ClientWriter, webSockets: WebSocketInbound, storage: ServerStorage, history: (any OwedHistory)?) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.loop = loop
        self.directory = directory
        self.writer = writer
        self.webSockets = webSockets
        self.storage = storage
        self.history = history
    }

    private var phase: ServerPhase { loop.phase }

    /// How often draining looks whether the draws have ended. Looking, rather than being told:
    /// a draw ends in its runner (a timer, or its record's write coming back), and a glance over
    /// the few rooms that were busy costs nothing next to a hook in every runner.
    private static let drainCheckNanos: UInt64 = 25_000_000

    /// The first SIGTERM: refuse new draws, let the running ones finish, then `begin()`.
    func drain() {
        guard !phase.draining, !phase.shuttingDown, !loop.destroying else { return }
        phase.draining = true
        let busy = directory.registry.all.filter(Self.isBusy)
        guard !busy.isEmpty, loop.isRunning, config.shutdownGraceMs > 0 else { return begin() }
        drainingRooms = busy
        logger.notice("draining: no new draws; waiting for the running ones to finish",
                      metadata: ["draws": "\(busy.count)", "graceMs": "\(config.shutdownGraceMs)"])
        drainDeadline = clock.monotonicNanos() &+ UInt64(config.shutdownGraceMs) * 1_000_000
        drainTimer = loop.timer { [unowned self] in self.checkDrain() }
        drainTimer?.schedule(afterNanos: Self.drainCheckNanos)
    }

    /// Whether the room's draw is loading, running or waiting for its record.
    private static func isBusy(_ room: Room) -> Bool { room.isBusy }

    private func checkDrain() {
        guard drainDeadline != nil, !phase.shuttingDown else { return }
        drainingRooms.removeAll { !Self.isBusy($0) }
        let busy = drainingRooms
        if busy.isEmpty {
            logger.notice("drained: every running draw has ended")
            return begin()
        }
        if let deadline = drainDeadline, clock.monotonicNanos() >= deadline {
            logger.warning("shutdown grace period over: aborting the draws still running",
                           metadata: ["draws": "\(busy.count)", "rooms": "\(busy.map(\.name).joined(separator: ","))"])
            return begin()
        }
        drainTimer?.schedule(afterNanos: Self.drainCheckNanos)
    }

    /// The stop: abort what still runs, write the records, close the clients.
    func begin() {
        guard !phase.shuttingDown, !loop.destroying else { return }
        drainDeadline = nil
        drainingRooms = []
        drainTimer?.cancel()
        logger.info("shutting down", metadata: ["clients": "\(webSockets.clients.count)", "rooms": "\(directory.registry.count)"])
        // Aborts first: they are room broadcasts, so every client drains them before its close.
        for room in directory.registry.all { room.runner?.shutdown() }
        phase.draining = true
        phase.shuttingDown = true
        guard loop.isRunning else { return }
        timer = loop.timer { [unowned self] in self.timerFired() }
        let records = RecordsDrain(loop: loop, storage: storage, history: history, graceNanos: graceNanos)
        if records.start(then: { [unowned self] outcome in recordsDone(outcome) }) {
            self.records = records
        } else {
            closeClients()
        }
    }

    /// Phase 1 is over: every record queued before the stop is written (or failed) and every
    /// history line acknowledged, or the grace ran out and what is left is said plainly.
    private func recordsDone(_ outcome: RecordsDrain.Outcome) {
        if case .timedOut(let queued, let owedLines) = outcome {
            if queued > 0 {
                logger.warning("the draw store did not finish its writes within the shutdown grace period",
                               metadata: ["queued": "\(queued)"])
            }
            if owedLines > 0 {
                logger.warning("history lines still owed to the cluster at shutdown (not acknowledged within the grace period); the next start sends them",
                               metadata: ["lines": "\(owedLines)"])
            }
        }
        closeClients()
    }

    /// Frees the timers (teardown, after the gate cancelled them).
    func tearDown() {
        timer = nil
        drainTimer = nil
        records = nil
    }

    private var graceNanos: UInt64 { Nanoseconds.milliseconds(config.closeGraceMs) }

    private func closeClients() {
        phase.closingClients = true
        // At least a second to take what is owed and the close frame, however short the grace
        // (lws' timeouts, which this used to be, counted whole seconds from 1).
        let deadline = max(graceNanos, Nanoseconds.seconds(1))
        for client in Array(webSockets.clients.values) {
            writer.close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: true,
                        deadlineNanos: deadline)
        }
        if webSockets.clients.isEmpty {
            loop.exitRequested = true
            return
        }
        timer?.schedule(afterNanos: graceNanos)
    }

    private func timerFired() {
        if !webSockets.clients.isEmpty {
            logger.info("shutdown grace period over", metadata: ["clients": "\(webSockets.clients.count)"])
        }
        loop.exitRequested = true
    }
}
