import DrawCore
import DrawPresentation
import DrawTransport
import Foundation
import Logging

/// The live-draw server: static page, JSON API and WebSockets on one port, on libwebsockets.
/// This type is the lifecycle only (build and bind, run, stop); the work is done by one owner
/// per concern, each holding its own state (see Sources/README.md):
/// `ServiceLoop` (transport, inbox and `ServiceExecutor`, timers, readiness, front door,
/// connection count), `ServiceDispatcher` (routes events), the room owners (`RoomDirectory`,
/// `DrawCoordinator`, `RoomBroadcaster`, `RoomChanges`), `ClientWriter`, `WebSocketInbound`,
/// `HTTPAPI` (the router, with `HTTPAnswers` and the resources it routes to), `ShutdownCoordinator`
/// and `ServerStorage`; in cluster mode `ClusterRooms` behind
/// the rooms' seams (`DrawStartGate`, `SharedRooms`, `RoomEventBus`).
///
/// ## Threading rules
/// 1. One service thread — the thread that calls `run()` — owns every lws connection, every
///    room, every client and every timer. All lws callbacks run on it (lws calls them only from
///    `lws_service` and `lws_context_destroy`, and only `run()` calls those).
/// 2. Other threads never touch that state. They hand work over as jobs
///    (`ServiceExecutor.execute`/`continuation`: the inbox, appended under a lock, then
///    `lws_cancel_service`), and the service thread runs them on `.wakeUp`. Player loading runs
///    on a Swift task and comes back that way; so does `stop()`.
/// 3. Timers (`LoopTimer`: lws suls, or libev timers on our loop) are armed and fire only on the service thread.
/// 4. Exactly one `lws_write` per `SERVER_WRITEABLE` / `HTTP_WRITEABLE`.
/// 5. The draw store and the room store are called only on the storage thread (`StorageThread`):
///    one serial thread for every write, history read and room lookup, never the service thread
///    (a write waits for fsync) and never the cooperative pool. Results come back through the inbox like everything else.
///
/// Debug builds check rules 1 and 5 (`ThreadOwner`). The class is `@unchecked Sendable`
/// because its owners are service-thread state (rule 1) reached only through the inbox, and
/// the rest is immutable after `init` or thread-safe itself.
///
/// ## Ownership across C
/// The transport holds its handler, the dispatcher, unowned (and lws' context holds the
/// transport's context unretained): the transport is destroyed at the end of `run()` (or in
/// `deinit` when `run()` never ran), so it never outlives them.
public final class LiveDrawServer: @unchecked Sendable {
    /// Histogram buckets by metric label for the server's timers where a metrics backend's
    /// defaults are too coarse; the executable hands them to its Prometheus factory.
    public static var metricsDurationBuckets: [String: [Duration]] { ServerMetrics.durationBuckets }

    let logger: Logger
    let metrics = ServerMetrics()
    let loop: ServiceLoop
    let storage: ServerStorage
    /// When the allocator's free pages go back to the kernel (service thread).
    private var memoryTrim = MemoryTrimSchedule()
    /// Rooms, draws, fan-out and each client's writes (`RoomOwners`).
    let rooms: RoomOwners
    let webSockets: WebSocketInbound
    let http: HTTPAPI
    let shutdown: ShutdownCoordinator
    let dispatcher: ServiceDispatcher
    private let runClaim = NSLock()
    private var runClaimed = false // guarded by runClaim

    /// The bound port (the real one when `config.port` is 0).
    public let port: Int
    /// The lobby's host key: for the CLI's startup line only; never logged by the server.
    public let lobbyHostKey: String

    /// Creates the server and binds its port. Fails fast with a one-line reason.
    ///
    /// - Parameters:
    ///   - loadPlayers: fetches and merges the players of a new draw; called off the service
    ///     thread, once per draw.
    ///   - random: seeds, draw ids and host keys.
    ///   - clock: wall clock for timestamps, monotonic clock for scheduling.
    ///   - metricsText: the Prometheus exposition served on `GET /metrics` (404 when `nil`).
    ///   - store: where every draw is recorded, opened and recovered by the caller
    ///     (`RecoverInterruptedDraws`) before this call. The server owns it from then on: it
    ///     calls it only from its storage thread, and closes it when `run()` returns (or on
    ///     `deinit` if `run()` never ran). `nil`: no records, and the history endpoints answer
    ///     `404 not_found`. If `init` throws, the store stays the caller's.
    ///   - roomStore: where rooms are kept for good (in the executable the same SQLite store as
    ///     `store`), called on the same storage thread. Used only with a `store`. `nil`: rooms
    ///     live in memory only, as long as the process (`--data-dir off`).
    ///   - sources: the player lists' URLs, kept in every record.
    ///   - cluster: cluster mode's shared state (leases, room events; with a Redis `roomStore`),
    ///     docs/SCALING.md. `nil`: one node, nothing shared.
    public init(config: ServerConfig,
                loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult,
                random: any RandomSource, clock: any DrawClock,
                logger: Logger,
                metricsText: (@Sendable () -> String)? = nil,
                store: (any DrawRecordStore)? = nil,
                roomStore: (any RoomStore)? = nil,
                sources: DrawSources = DrawSources(usersURL: "", lotteryURL: ""),
                cluster: ClusterServices? = nil) throws(ServerStartError) {
        try LiveDrawServer.validate(config)
        guard let files = StaticFiles(folder: config.publicDir) else {
            throw .publicDirMissing(config.publicDir)
        }
        let (config, clampNotice) = try LiveDrawServer.fitToDescriptors(config)
        self.logger = logger
        lobbyHostKey = config.lobbyHostKey ?? HostKey.generate(using: random)

        TransportLog.route(to: logger)
        if let reason = config.eventLoop.unavailableReason { throw .eventLoopUnavailable(config.eventLoop, reason: reason) }
        // Our own listening socket (see `FrontDoor`): the transport gets no listener of its own.
        let listener = try Self.listen(config)
        guard let transport = Transport(Self.transportSettings(config, port: listener.port),
                                        thread: ThreadOwner(name: "service")) else {
            listener.close()
            throw .listenFailed(host: config.host, port: config.port)
        }
        guard let loop = ServiceLoop(transport: transport, metrics: metrics), let readiness = loop.readiness else {
            listener.close()
            transport.destroy()
            throw .listenFailed(host: config.host, port: config.port)
        }
        port = transport.port
        let door = FrontDoor(settings: Self.frontDoorSettings(config), listener: listener, host: loop,
                             readiness: readiness, loop: loop, clock: clock, logger: logger)
        loop.frontDoor = door
        guard door.start() else {
            loop.tearDown()
            throw .listenFailed(host: config.host, port: config.port)
        }
        if let clampNotice { logger.warning("\(clampNotice)") }
        self.loop = loop
        // Started only now: a failed init leaves no thread behind.
        // Cluster mode keeps rooms in Redis: their thread is not the SQLite draws' thread.
        storage = ServerStorage(store: store, rooms: roomStore, roomsOnOwnThread: cluster != nil,
                                executor: loop.executor, logger: logger)
        // Cluster mode or not is chosen here, once: the room owners only see the seams.
        let lists = EntrantLists(), seams: RoomOwners.Seams
        if let cluster {
            let node = ClusterNode(services: cluster, executor: loop.executor, clock: clock, logger: logger,
                                   makeTimer: { [unowned loop] action in loop.makeTimer(action) })
            let shared = ClusterRooms(node: node, clock: clock, logger: logger, loop: loop, storage: storage, entrantLists: lists)
            seams = RoomOwners.Seams(gate: shared.gate, shared: shared, steps: shared.ownDraws)
        } else {
            seams = .singleNode()
        }
        rooms = RoomOwners(config: config, clock: clock, random: random, logger: logger, metrics: metrics, loop: loop,
                           storage: storage, entrantLists: lists, loadPlayers: loadPlayers, sources: sources, seams: seams)
        let (writer, directory, broadcaster) = (rooms.writer, rooms.directory, rooms.broadcaster)
        webSockets = WebSocketInbound(config: config, clock: clock, logger: logger, metrics: metrics, loop: loop,
                                      directory: directory, broadcaster: broadcaster, draws: rooms.draws, writer: writer)
        http = HTTPAPI(config: config, clock: clock, logger: logger, metrics: metrics, metricsText: metricsText,
                       staticFiles: files, loop: loop, directory: directory, broadcaster: broadcaster, draws: rooms.draws,
                       changes: rooms.changes, scheduler: rooms.scheduler, shared: seams.shared, storage: storage)
        door.uploadGate = http.entrants // an upload's room, key and type are checked before its body is read
        shutdown = ShutdownCoordinator(config: config, clock: clock, logger: logger, loop: loop, directory: directory,
                                       writer: writer, webSockets: webSockets, storage: storage,
                                       history: seams.shared.owedHistory)
        dispatcher = ServiceDispatcher(logger: logger, loop: loop, writer: writer, webSockets: webSockets, http: http)
        transport.handler = dispatcher
        loop.inbox.attach(transport)
        directory.openLobby(hostKey: lobbyHostKey)
        rooms.scheduler.loadWaiting() // scheduled draws survive restarts (issue 30)
        loop.startHousekeeping(everyTick: { [unowned self] in
            self.rooms.broadcaster.sendHeartbeats()
            self.rooms.writer.dropOverdueClosings()
        }, everySecond: { [unowned self] in
            self.metrics.flush()
            self.rooms.directory.sweep()
            self.rooms.directory.expireRoomsIfDue()
            self.rooms.seams.shared.tick()
            self.rooms.scheduler.tick()
            if self.memoryTrim.second() { _ = self.storage.submit { FreeMemory.release() } }
        })
        logger.info("listening", metadata: ["host": "\(config.host)", "port": "\(port)",
                                            "tls": "\(config.tlsCertPath != nil)"])
    }

    /// Runs the service loop on the calling thread until shutdown completes. Call it once,
    /// from a plain thread (the main thread, a `Thread`), not from inside a Swift task: it
    /// blocks, and `loadPlayers` runs as a task that needs a free thread of the cooperative pool.
    public func run() {
        let first = runClaim.withLock { () -> Bool in
            defer { runClaimed = true }
            return !runClaimed
        }
        guard first, loop.isRunning else { return }
        let executor = loop.executor
        if !loop.run(first: { executor.drain() }) { // first: a stop() that came before run()
            logger.error("lws service loop failed; stopping")
        }
        tearDown()
        rooms.seams.shared.close()
        storage.close()
        logger.info("stopped")
    }

    /// Begins a graceful shutdown that aborts running draws (`server_shutdown`, seed revealed);
    /// `run()` returns when it is done. Ends a `drain()` early. Safe from any thread (a
    /// signal-handling thread, a test), any number of times — but not from inside a raw C signal
    /// handler: it takes a lock.
    public func stop() {
        loop.phase.stopAsked.raise()
        loop.executor.execute { [unowned self] in shutdown.begin() }
    }

    /// Begins a draining shutdown: new draws are refused (`draining`, 503) and `/healthz` answers
    /// 503 `draining`; running draws go on to their end, for at most `shutdownGraceMs`, and then
    /// `stop()` follows by itself. Safe from any thread, like `stop()`.
    public func drain() {
        loop.phase.stopAsked.raise()
        loop.executor.execute { [unowned self] in shutdown.drain() }
    }

    /// Runs `body` on the service thread at its next turn (from any thread). Unowned: only this
    /// server's loop drains its inbox, so the server is alive whenever `body` runs.
    func onServiceThread(_ body: @escaping @Sendable (LiveDrawServer) -> Void) {
        loop.executor.execute { [unowned self] in body(self) }
    }

    deinit {
        if loop.isRunning { tearDown() }
        rooms.seams.shared.close()
        storage.close()
    }

    /// Ends the service: lws closes every connection (their last events run now, on this
    /// thread), then the owners forget their rooms, clients and timers.
    private func tearDown() {
        loop.tearDown()
        shutdown.tearDown()
        rooms.removeAll()
        webSockets.removeAll()
    }
}
