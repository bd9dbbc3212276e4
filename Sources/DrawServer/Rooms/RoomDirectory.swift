import DrawCore
import DrawPresentation
import Logging

/// Which rooms exist and which are in memory: the registry (idleness and eviction are its
/// policy), loading a room from the room store on demand (`+Loading`), creating one, the host's
/// actions on the room itself (`+HostActions`: delete, rotate the key) and expiry (`+Expiry`).
/// Service thread only; the store is called on the storage thread.
///
/// It makes rooms but shows nothing in them: a room made or freed is handed to `roomMade` /
/// `roomFreed` (the broadcaster subscribes it to the bus, forgets its heartbeat), and a deleted
/// room's viewers are closed through the `ClientWriter`.
final class RoomDirectory {
    let config: ServerConfig
    let clock: any DrawClock
    let random: any RandomSource
    let logger: Logger
    let metrics: ServerMetrics
    unowned let loop: any RoomLoop
    unowned let storage: ServerStorage
    unowned let writer: ClientWriter
    /// What other nodes share with this one (one node: nothing).
    let shared: any SharedRooms
    /// What a finished draw gives back (a cluster's lease).
    let gate: any DrawStartGate
    /// Every room in memory: lookup, creation, eviction of idle ones (`RoomRegistry`).
    let registry: RoomRegistry
    /// Lookups waiting for a room to come back from the store (`+Loading`).
    var loads: LoadWaiters<(Result<Room, ClientErrorCode>) -> Void>
    /// When the store was last asked to expire rooms (monotonic), `nil` before the first time.
    var lastExpiry: UInt64?
    /// A room was made (subscribe it to the bus) or left memory (forget what was kept for it).
    var roomMade: (Room) -> Void = { _ in }
    var roomFreed: (Room) -> Void = { _ in }
    /// The commitment of the draw scheduled in a room (`DrawScheduler`), for a room made now.
    var scheduledDraw: (String) -> ScheduledDrawCommitment? = { _ in nil }

    init(config: ServerConfig, clock: any DrawClock, random: any RandomSource, logger: Logger, metrics: ServerMetrics,
         loop: any RoomLoop, storage: ServerStorage, writer: ClientWriter, shared: any SharedRooms, gate: any DrawStartGate) {
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.metrics = metrics
        self.loop = loop
        self.storage = storage
        self.writer = writer
        self.shared = shared
        self.gate = gate
        registry = RoomRegistry(maxRooms: config.maxRooms, idleNanos: config.roomIdleNanos, pinned: [RoomName.lobby])
        loads = LoadWaiters(maxNames: Self.maxLoadsInFlight, maxPerName: config.maxConnections,
                            maxTotal: config.maxConnections)
        registry.onEvict = { [unowned self] room, reason in self.roomEvicted(room, reason) }
    }

    var phase: ServerPhase { loop.phase }

    subscript(name: String) -> Room? { registry[name] }

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

    /// Forgets every room (teardown).
    func removeAll() {
        registry.removeAll()
        loads.removeAll()
    }

    /// Builds a room; `roomMade` subscribes it to the bus. Its runner and timers come on first use
    /// (`DrawCoordinator.runner(of:)`, the broadcaster's timers): most rooms never need them.
    func makeRoom(name: String, keyHash: HostKeyHash, lastResult: FinishedDraw? = nil) -> Room {
        let room = Room(name: name, keyHash: keyHash, outboundQueueLimit: config.outboundQueueLimit,
                        presenceIntervalMs: config.presenceIntervalMs, lastResult: lastResult)
        room.scheduled = scheduledDraw(name)
        roomMade(room)
        return room
    }

    /// Something happened in a room (a viewer came or went, a draw event, an answer from the
    /// storage thread): let the registry re-read whether it is idle.
    func roomActivity(_ room: Room) {
        registry.refresh(room, nowNanos: clock.monotonicNanos())
        gate.activity(in: room)
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
    private func roomEvicted(_ room: Room, _ reason: RoomRegistry.EvictionReason) {
        roomFreed(room)
        shared.evicted(room.name)
        metrics.roomEvicted(reason: reason.rawValue)
        logger.debug("room freed", metadata: ["room": "\(room.name)", "reason": "\(reason.rawValue)"])
    }

    /// Takes a room out of memory for good (deleted, expired): it is idle, so its buffers go first.
    func remove(_ room: Room, reason: RoomRegistry.EvictionReason) {
        room.releaseBuffers()
        registry.remove(named: room.name, reason: reason)
        metrics.rooms.record(registry.count)
    }
}
