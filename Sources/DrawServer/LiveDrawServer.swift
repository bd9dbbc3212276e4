import CLwsShim
import DrawCore
import DrawPresentation
import Foundation
import Logging

/// The live-draw server: static page, JSON API and WebSockets on one port, on libwebsockets.
///
/// ## Threading rules
/// 1. One service thread — the thread that calls `run()` — owns every lws connection (`wsi`),
///    every room, every client and every timer. All lws callbacks run on it (lws calls them
///    only from `lws_service` and `lws_context_destroy`, and only `run()` calls those).
/// 2. Other threads never touch that state. They hand work over through `inbox`
///    (`ServiceInbox.post`: append under a lock, then `lws_cancel_service`), and the service
///    thread drains it in `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Player loading runs on a Swift
///    task and comes back that way; so does `stop()`.
/// 3. Timers (`lws_sul_schedule`) are armed only on the service thread.
/// 4. Exactly one `lws_write` per `SERVER_WRITEABLE` / `HTTP_WRITEABLE`.
/// 5. The draw store is called only on the storage thread (`StorageThread`): one serial thread
///    for every write and history read, never the service thread (a write waits for fsync) and
///    never the cooperative pool. Results come back through `inbox` like everything else.
///
/// That is why the class is `@unchecked Sendable`: the stored properties marked "service
/// thread" are only touched there (rule 1); the others are immutable after `init`, or are
/// themselves thread-safe (`inbox`).
///
/// ## Ownership across C
/// The lws context's user pointer is `self`, unretained: the context is destroyed at the end of
/// `run()` (or in `deinit` when `run()` never ran), so it never outlives the server.
public final class LiveDrawServer: @unchecked Sendable {
    // MARK: immutable after init (any thread)

    let config: ServerConfig
    let clock: any DrawClock
    let random: any RandomSource
    let logger: Logger
    let loadPlayers: @Sendable () async throws(DrawError) -> MergeResult
    let metricsText: (@Sendable () -> String)?
    let staticFiles: StaticFiles
    let inbox = ServiceInbox()
    /// Where draws are recorded (the caller's store, holding aborts it cannot take yet); `nil`:
    /// no records and no history endpoints.
    let store: RecoveringDrawStore?
    /// The one thread that calls `store`; `nil` without a store, before `init` succeeded, and
    /// once `closeStore()` ran. Set and cleared on the thread that owns the server's lifecycle
    /// (`init`, then the end of `run()` or `deinit`), read on the service thread in between.
    var storage: StorageThread?
    /// The player lists' URLs, for the records.
    let sources: DrawSources
    private let runClaim = NSLock()
    private var runClaimed = false // guarded by runClaim

    /// The bound port (the real one when `config.port` is 0). Set once during `init`.
    public private(set) var port: Int = 0
    /// The lobby's host key: for the CLI's startup line only; never logged by the server.
    public let lobbyHostKey: String

    // MARK: service thread only

    /// The shim's server handle (owns the lws context); `nil` once destroyed.
    var lws: OpaquePointer?
    let timerGate = TimerGate()
    /// The service thread, checked at its entry points in debug builds (threading rule 1).
    let serviceThread = ThreadOwner(name: "service")
    /// Descriptors we read ourselves before (or instead of) lws; see `Readiness`.
    var readiness: Readiness?
    /// Accepts every connection and reads its request before lws does; see `FrontDoor`.
    var frontDoor: FrontDoor?
    /// Where WebSocket input is read to, for one connection at a time (`clientReadable`): the
    /// size of the largest TLS record, so one read takes a whole record.
    let inputScratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
    let bus: any RoomEventBus = InProcessRoomEventBus()
    let metrics = ServerMetrics()
    /// Every room: lookup, creation, eviction of idle ones (`RoomRegistry`).
    let rooms: RoomRegistry
    /// Room creations per client address (`POST /api/rooms`).
    var roomCreations: AddressRateLimiter
    var clients: [ObjectIdentifier: ClientConnection] = [:]
    /// Every accepted connection (HTTP or WebSocket) still open, for `maxConnections`.
    var openConnections = Set<OpaquePointer>()
    var shuttingDown = false
    /// Set while the context is being destroyed: callbacks then only release memory.
    var destroying = false
    var loopShouldExit = false
    var housekeeping: LwsTimer?
    var shutdownTimer: LwsTimer?
    /// Shutdown's first phase: the storage queue is draining; clients are closed after it.
    var awaitingStorageDrain = false
    /// HTTP requests waiting for the storage thread, by request number.
    var pendingReads: [UInt64: PendingRead] = [:]
    var lastReadNumber: UInt64 = 0

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
    ///   - sources: the player lists' URLs, kept in every record.
    public init(config: ServerConfig,
                loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult,
                random: any RandomSource, clock: any DrawClock,
                logger: Logger,
                metricsText: (@Sendable () -> String)? = nil,
                store: (any DrawRecordStore)? = nil,
                sources: DrawSources = DrawSources(usersURL: "", lotteryURL: "")) throws(ServerStartError) {
        try LiveDrawServer.validate(config)
        guard let files = StaticFiles(folder: config.publicDir) else {
            throw .publicDirMissing(config.publicDir)
        }
        let (config, clampNotice) = try LiveDrawServer.fitToDescriptors(config)
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.loadPlayers = loadPlayers
        self.metricsText = metricsText
        self.staticFiles = files
        self.lobbyHostKey = config.lobbyHostKey ?? HostKey.generate(using: random)
        self.store = store.map { RecoveringDrawStore($0) }
        self.sources = sources
        self.rooms = RoomRegistry(maxRooms: config.maxRooms, idleNanos: config.roomIdleNanos, pinned: [RoomName.lobby])
        self.roomCreations = AddressRateLimiter(ratePerSecond: config.roomCreationPerMinute / 60,
                                                burst: Double(config.roomCreationBurst),
                                                capacity: config.roomCreationAddresses)

        // Our own listening socket (see `FrontDoor`): lws gets no listener of its own.
        let listener = try ListenSocket.open(host: config.host, port: config.port)
        guard let server = createLws(port: listener.port) else {
            listener.close()
            throw .listenFailed(host: config.host, port: config.port)
        }
        lws = server
        port = Int(ldlws_port(server))
        guard let watcher = Readiness(server: server, owner: serviceThread) else {
            listener.close()
            tearDown()
            throw .listenFailed(host: config.host, port: config.port)
        }
        readiness = watcher
        // The epoll descriptor is not a connection: keep it out of the connection count.
        if let epollWsi = watcher.wsi { openConnections.remove(epollWsi) }
        let door = FrontDoor(settings: Self.frontDoorSettings(config), listener: listener, host: self,
                             readiness: watcher, server: server, gate: timerGate, clock: clock, logger: logger)
        frontDoor = door
        guard door.start() else {
            tearDown()
            throw .listenFailed(host: config.host, port: config.port)
        }
        if let clampNotice { logger.warning("\(clampNotice)") }
        // Started only now: a failed init leaves no thread behind.
        if let store = self.store { storage = StorageThread(store: store) }
        inbox.attach(server)
        rooms.onEvict = { [unowned self] room, reason in self.roomEvicted(room, reason) }
        rooms.insertPinned(makeRoom(name: RoomName.lobby, hostKey: lobbyHostKey))
        metrics.rooms.record(rooms.count)
        housekeeping = LwsTimer(server: server, gate: timerGate) { [unowned self] in self.housekeepingTick() }
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
        guard first, let server = lws else { return }
        serviceThread.claim()
        housekeeping?.schedule(afterNanos: 1_000_000_000)
        drainInbox() // a stop() that came before run()
        while !loopShouldExit {
            if ldlws_service(server) < 0 {
                logger.error("lws service loop failed; stopping")
                break
            }
        }
        tearDown()
        closeStore()
        logger.info("stopped")
    }

    /// Begins a graceful shutdown; `run()` returns when it is done. Safe from any thread
    /// (a signal-handling thread or `DispatchSource`, a test), any number of times — but not
    /// from inside a raw C signal handler: it takes a lock.
    public func stop() {
        inbox.post(.shutdown)
    }

    /// Runs `body` on the service thread at its next turn (from any thread).
    func onServiceThread(_ body: @escaping @Sendable (LiveDrawServer) -> Void) {
        inbox.post(.perform(body))
    }

    deinit {
        if lws != nil { tearDown() }
        closeStore()
        inputScratch.deallocate()
    }

    // MARK: lifecycle internals

    private static func validate(_ c: ServerConfig) throws(ServerStartError) {
        guard (0...65535).contains(c.port) else { throw .invalidConfig("port \(c.port) is out of range") }
        guard c.maxMessageBytes > 0, c.maxBodyBytes > 0, c.outboundQueueLimit > 0, c.maxConnections > 0,
              c.maxStrikes > 0, c.maxRooms > 0, c.closeHandshakeSeconds > 0, c.roomIdleMs > 0,
              c.roomCreationBurst > 0, c.roomCreationPerMinute > 0, c.roomCreationAddresses > 0,
              c.headTimeoutMs > 0, c.slowHeadAfterMs > 0, c.slowHeadsPerAddress >= 0 else {
            throw .invalidConfig("limits must be positive")
        }
        if let key = c.lobbyHostKey, !HostKey.isWellFormed(key) {
            throw .invalidConfig("the lobby host key must be \(HostKey.length) lowercase hex characters")
        }
        switch (c.tlsCertPath, c.tlsKeyPath) {
        case (nil, nil): break
        case (let cert?, let key?):
            for path in [cert, key] where !FileManager.default.isReadableFile(atPath: path) {
                throw .unreadableTLSFile(path)
            }
        default: throw .incompleteTLS
        }
    }

    /// The lws context, without a listener: connections come from the front door, bound to
    /// `port` (which lws only reports).
    private func createLws(port: Int) -> OpaquePointer? {
        var c = ldlws_config()
        c.adopt_only = 1
        c.port = Int32(port)
        c.header_data_bytes = config.requestLimits.lwsHeaderTableBytes
        c.ipv4_only = 0 // lws binds nothing; it must not take an adopted IPv6 socket for IPv4
        c.idle_ping_secs = UInt32(clamping: config.idlePingSeconds)
        c.idle_timeout_secs = UInt32(clamping: config.idleTimeoutSeconds)
        c.timeout_secs = 10
        // lws mallocs this per WebSocket for its own frame parser, which no longer reads them
        // (LiveDrawServer+WebSocketInput); 0 would mean 4096. The smallest it accepts.
        c.rx_buffer_size = 1
        c.tx_packet_size = Lws.sendChunkBytes
        c.header_tables = UInt32(clamping: config.headerTables)
        c.callback = lwsServiceCallback
        c.user = Unmanaged.passUnretained(self).toOpaque()
        ldlws_set_log_level(LLL_ERR | LLL_WARN)
        return withOptionalCString(config.tlsCertPath) { certPtr in
            withOptionalCString(config.tlsKeyPath) { keyPtr in
                WireMessages.subprotocol.withCString { proto in
                    c.tls_cert_path = certPtr
                    c.tls_key_path = keyPtr
                    c.subprotocol = proto
                    return ldlws_create(&c)
                }
            }
        }
    }

    /// Ends the service: no more timers, no more wake-ups, then lws closes every connection
    /// (their CLOSED callbacks run here, on the service thread) and frees the context.
    func tearDown() {
        guard let server = lws else { return }
        metrics.flush()
        destroying = true
        timerGate.close()
        inbox.detach()
        frontDoor?.close()
        readiness?.close()
        ldlws_destroy(server)
        readiness = nil
        frontDoor = nil
        lws = nil
        // Timers are cancelled and detached, so freeing them no longer touches lws.
        housekeeping = nil
        shutdownTimer = nil
        rooms.removeAll()
        clients.removeAll()
    }

    func drainInbox() {
        serviceThread.check()
        for command in inbox.drain() {
            switch command {
            case .playersLoaded(let room, let attempt, let result):
                rooms[room]?.runner?.playersLoaded(attempt: attempt, result)
                roomActivity(room)
            case .recorded(let room, let write, let error):
                rooms[room]?.runner?.recorded(write, error: error)
                roomActivity(room)
            case .storageAnswered(let request, let response):
                storageAnswered(request: request, response)
            case .storageDrained:
                storageDrained()
            case .shutdown:
                beginShutdown()
            case .perform(let body):
                body(self)
            }
        }
    }

    private func housekeepingTick() {
        metrics.flush()
        sweepRooms()
        if !shuttingDown { // a room's last messages before the close are the draw's, not these
            RoomHeartbeat(intervalSeconds: config.heartbeatSeconds).tick(
                rooms.all, nowNanos: clock.monotonicNanos(), epochMillis: clock.epochMillis) { broadcast($1, in: $0) }
        }
        housekeeping?.schedule(afterNanos: 1_000_000_000)
    }
}

func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
