import DrawCore
import DrawPresentation
import DrawTransport
import Logging

/// The rooms: the registry, what a room makes on first use (runner, timers), idleness and
/// eviction (the policy itself is `RoomRegistry`'s), bus events, presence and fan-out
/// (`RoomService+Events`, `RoomService+Fanout`). Service thread only.
final class RoomService {
    let config: ServerConfig
    let clock: any DrawClock
    let random: any RandomSource
    let logger: Logger
    let metrics: ServerMetrics
    let loadPlayers: @Sendable () async throws(DrawError) -> MergeResult
    /// The player lists' URLs, for the records.
    let sources: DrawSources
    unowned let loop: ServiceLoop
    unowned let storage: ServerStorage
    let bus: any RoomEventBus = InProcessRoomEventBus()
    /// Every room in memory: lookup, creation, eviction of idle ones (`RoomRegistry`).
    let registry: RoomRegistry
    /// Lookups waiting for a room to come back from the store (`RoomService+Store`).
    var loads: LoadWaiters<(Result<Room, ClientErrorCode>) -> Void>
    /// When the store was last asked to expire rooms (monotonic), `nil` before the first time.
    var lastExpiry: UInt64?
    /// Cluster mode: this node's channel, leases and worker (`RoomService+Cluster`); `nil` alone.
    let cluster: ClusterNode?
    /// Cluster mode: the rooms this node last reported viewers in (so it reports 0 once).
    var reportedPresence: [String: Int] = [:]
    /// Recent draws' entrant lists, encoded once (the entrants endpoint, v1 clients).
    let entrantLists = EntrantLists()
    /// Watched rooms in last-broadcast order, for their heartbeats (`RoomService+Heartbeat`).
    var heartbeats: RoomHeartbeat
    /// Closing clients and when each must be gone (`RoomService+Fanout`).
    var closeDeadlines = CloseDeadlines()

    init(config: ServerConfig, clock: any DrawClock, random: any RandomSource, logger: Logger, metrics: ServerMetrics,
         loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult, sources: DrawSources,
         loop: ServiceLoop, storage: ServerStorage, cluster: ClusterNode? = nil) {
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.metrics = metrics
        self.loadPlayers = loadPlayers
        self.sources = sources
        self.loop = loop
        self.storage = storage
        self.cluster = cluster
        heartbeats = RoomHeartbeat(intervalSeconds: config.heartbeatSeconds)
        registry = RoomRegistry(maxRooms: config.maxRooms, idleNanos: config.roomIdleNanos, pinned: [RoomName.lobby])
        loads = LoadWaiters(maxNames: Self.maxLoadsInFlight, maxPerName: config.maxConnections,
                            maxTotal: config.maxConnections)
        registry.onEvict = { [unowned self] room, reason in self.roomEvicted(room, reason) }
    }

    var phase: ServerPhase { loop.phase }

    /// Opens the lobby, which is never evicted. It is not in the room store: its key comes from
    /// the configuration (the data directory's `lobby.key` or the operator's file) at every start.
    /// Its last result comes from the history, read first thing on the storage thread (a viewer
    /// who joins in the few milliseconds before sees none).
    func openLobby(hostKey: String) {
        let lobby = makeRoom(name: RoomName.lobby, keyHash: HostKeyHash(of: hostKey))
        registry.insertPinned(lobby)
        metrics.rooms.record(registry.count)
        let search = Self.lastResultSearch
        _ = storage.drawJob({ store throws(StorageError) in
            try Self.lastResult(of: RoomName.lobby, in: store, search: search)
        }) { [unowned self, unowned lobby] result in
            switch result {
            case .success(let last?): lobby.restoreLastResult(last)
            case .success(nil): break
            case .failure(let error): logger.warning("could not read the lobby's last result", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Forgets every room and closing client (teardown).
    func removeAll() {
        registry.removeAll()
        loads.removeAll()
        closeDeadlines.removeAll()
    }

    /// Builds a room and subscribes it to the bus. Its runner and timers come on first use
    /// (`runner(of:)`, `presenceTimer(of:)`, `loadingTimer(of:)`): most rooms never need them.
    func makeRoom(name: String, keyHash: HostKeyHash, lastResult: FinishedDraw? = nil) -> Room {
        let room = Room(name: name, keyHash: keyHash, outboundQueueLimit: config.outboundQueueLimit,
                        presenceIntervalMs: config.presenceIntervalMs, lastResult: lastResult)
        bus.subscribe(room: name) { [unowned self, unowned room] event in
            self.deliver(event, to: room)
        }
        return room
    }

    /// The room's draw runner, made with its timer on the first draw.
    func runner(of room: Room) -> DrawRunner {
        if let runner = room.runner { return runner }
        precondition(loop.isRunning, "draws start while the server runs")
        let inbox = loop.inbox, load = self.loadPlayers
        let deps = DrawRunner.Dependencies(
            bus: bus, clock: clock, planner: PlanDraw(random: random, schedule: config.schedule),
            metrics: metrics, logger: logger, random: random, sources: sources,
            beginLoading: { [unowned self] room, attempt in
                // A room with its own list draws from it (`RoomService+DrawSetup`).
                if loadOwnList(room: room, attempt: attempt) { return }
                // Rule 2: loading runs off the service thread; its result comes back by the inbox.
                Task.detached {
                    let result: Result<MergeResult, DrawError>
                    do throws(DrawError) { result = .success(try await load()) } catch { result = .failure(error) }
                    inbox.post(.playersLoaded(room: room, attempt: attempt, result))
                }
            },
            record: storage.recorder(room: room.name))
        let runner = DrawRunner(room: room.name, dependencies: deps)
        runner.timer = loop.timer { [unowned runner] in runner.timerFired() }
        room.runner = runner
        return runner
    }

    /// The timer that sends the room's coalesced `presence`, made on the first viewer change.
    func presenceTimer(of room: Room) -> LoopTimer {
        timer(\.presenceTimer, of: room, firing: { [unowned self, unowned room] in self.sendPresence(room) })
    }

    /// The timer that releases a held-back `loading`, made on the first draw that holds one.
    func loadingTimer(of room: Room) -> LoopTimer {
        timer(\.loadingTimer, of: room, firing: { [unowned self, unowned room] in self.releaseLoading(room) })
    }

    /// The timer in `slot`, made with `action` the first time (the action is only built then).
    private func timer(_ slot: ReferenceWritableKeyPath<Room, LoopTimer?>, of room: Room,
                       firing action: @autoclosure () -> () -> Void) -> LoopTimer {
        if let timer = room[keyPath: slot] { return timer }
        precondition(loop.isRunning, "rooms are used while the server runs")
        let timer = loop.timer(action())
        room[keyPath: slot] = timer
        return timer
    }

    /// Something happened in a room (a viewer came or went, a draw event, an answer from the
    /// storage thread): let the registry re-read whether it is idle.
    func roomActivity(_ room: Room) {
        registry.refresh(room, nowNanos: clock.monotonicNanos())
        if cluster != nil { releaseLeaseIfDone(room) }
    }

    func roomActivity(_ name: String) {
        if let room = registry[name] { roomActivity(room) }
    }

    /// Housekeeping: give back idle rooms' buffers, free rooms idle too long. Not during
    /// shutdown, which still walks every room.
    func sweep() {
        guard !phase.shuttingDown, !loop.destroying else { return }
        let before = registry.count
        registry.sweep(nowNanos: clock.monotonicNanos())
        if registry.count != before { metrics.rooms.record(registry.count) }
    }

    /// The registry let `room` go: nothing may call into it any more.
    func roomEvicted(_ room: Room, _ reason: RoomRegistry.EvictionReason) {
        bus.unsubscribe(room: room.name)
        cluster?.forget(room: room.name)
        heartbeats.forget(room.name)   // a room made later under this name starts its own quiet time
        metrics.roomEvicted(reason: reason.rawValue)
        logger.debug("room freed", metadata: ["room": "\(room.name)", "reason": "\(reason.rawValue)"])
    }
}
