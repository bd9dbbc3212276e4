import DrawCore
import DrawPresentation
import DrawTransport
import Foundation
import Logging

/// The live-draw server: static page, JSON API and WebSockets on one port, on libwebsockets.
/// This type is the lifecycle only (build and bind, run, stop); the work is done by one owner
/// per concern, each holding its own state (see Sources/README.md):
/// `ServiceLoop` (transport, inbox, timers, readiness, front door, connection count),
/// `ServiceDispatcher` (routes events and commands), `RoomService` (rooms, fan-out, presence,
/// runners), `WebSocketInbound`, `HTTPAPI`, `ShutdownCoordinator` and `ServerStorage`.
///
/// ## Threading rules
/// 1. One service thread — the thread that calls `run()` — owns every lws connection, every
///    room, every client and every timer. All lws callbacks run on it (lws calls them only from
///    `lws_service` and `lws_context_destroy`, and only `run()` calls those).
/// 2. Other threads never touch that state. They hand work over through the inbox
///    (`ServiceInbox.post`: append under a lock, then `lws_cancel_service`), and the service
///    thread drains it on `.wakeUp`. Player loading runs on a Swift task and comes back that
///    way; so does `stop()`.
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
    let rooms: RoomService
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
        storage = ServerStorage(store: store, rooms: roomStore, inbox: loop.inbox, logger: logger)
        let node = cluster.map { ClusterNode(services: $0, inbox: loop.inbox, logger: logger) }
        rooms = RoomService(config: config, clock: clock, random: random, logger: logger, metrics: metrics,
                            loadPlayers: loadPlayers, sources: sources, loop: loop, storage: storage, cluster: node)
        webSockets = WebSocketInbound(config: config, clock: clock, logger: logger, metrics: metrics,
                                      loop: loop, rooms: rooms)
        http = HTTPAPI(config: config, clock: clock, logger: logger, metrics: metrics, metricsText: metricsText,
                       staticFiles: files, loop: loop, rooms: rooms, storage: storage)
        shutdown = ShutdownCoordinator(config: config, logger: logger, loop: loop, rooms: rooms,
                                       webSockets: webSockets, storage: storage)
        dispatcher = ServiceDispatcher(logger: logger, loop: loop, rooms: rooms, webSockets: webSockets, http: http,
                                       shutdown: shutdown)
        transport.handler = dispatcher
        loop.inbox.attach(transport)
        rooms.openLobby(hostKey: lobbyHostKey)
        loop.startHousekeeping(everyTick: { [unowned self] in
            self.rooms.sendHeartbeats()
            self.rooms.dropOverdueClosings()
        }, everySecond: { [unowned self] in
            self.metrics.flush()
            self.rooms.sweep()
            self.rooms.expireRoomsIfDue()
            self.rooms.clusterTick()
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
        let dispatcher = self.dispatcher
        if !loop.run(first: { dispatcher.drainInbox() }) { // first: a stop() that came before run()
            logger.error("lws service loop failed; stopping")
        }
        tearDown()
        rooms.cluster?.close()
        storage.close()
        logger.info("stopped")
    }

    /// Begins a graceful shutdown that aborts running draws (`server_shutdown`, seed revealed);
    /// `run()` returns when it is done. Ends a `drain()` early. Safe from any thread (a
    /// signal-handling thread, a test), any number of times — but not from inside a raw C signal
    /// handler: it takes a lock.
    public func stop() {
        loop.inbox.post(.shutdown)
    }

    /// Begins a draining shutdown: new draws are refused (`draining`, 503) and `/healthz` answers
    /// 503 `draining`; running draws go on to their end, for at most `shutdownGraceMs`, and then
    /// `stop()` follows by itself. Safe from any thread, like `stop()`.
    public func drain() {
        loop.inbox.post(.drain)
    }

    /// Runs `body` on the service thread at its next turn (from any thread). Unowned: only this
    /// server's loop drains its inbox, so the server is alive whenever `body` runs.
    func onServiceThread(_ body: @escaping @Sendable (LiveDrawServer) -> Void) {
        loop.inbox.post(.perform { [unowned self] in body(self) })
    }

    deinit {
        if loop.isRunning { tearDown() }
        rooms.cluster?.close()
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
