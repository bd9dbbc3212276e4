import DrawCore
import Logging

/// The owners of rooms and what goes out to their viewers, made and wired together in one place:
/// `LiveDrawServer` holds them, and tests make them on a fake loop. They reach each other through
/// `unowned` references (this value holds them), and the few hooks back are set here.
struct RoomOwners {
    /// The seams cluster mode plugs into; one node's by default.
    struct Seams {
        let gate: any DrawStartGate
        let shared: any SharedRooms
        /// Where a draw's steps are made durable before its viewers see them.
        let steps: any DrawStepLog

        /// One node: nothing shared.
        static func singleNode() -> Seams {
            let single = SingleNodeRooms()
            return Seams(gate: single, shared: single, steps: single)
        }
    }

    let writer: ClientWriter
    let directory: RoomDirectory
    let broadcaster: RoomBroadcaster
    let draws: DrawCoordinator
    let changes: RoomChanges
    let scheduler: DrawScheduler
    let seams: Seams

    init(config: ServerConfig, clock: any DrawClock, random: any RandomSource, logger: Logger, metrics: ServerMetrics,
         loop: any RoomLoop, storage: ServerStorage, entrantLists: EntrantLists,
         loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult, sources: DrawSources, seams: Seams) {
        self.seams = seams
        let bus = InProcessRoomEventBus()
        writer = ClientWriter(config: config, clock: clock, logger: logger, metrics: metrics, loop: loop)
        directory = RoomDirectory(config: config, clock: clock, random: random, logger: logger, metrics: metrics,
                                  loop: loop, storage: storage, writer: writer, shared: seams.shared, gate: seams.gate)
        broadcaster = RoomBroadcaster(config: config, clock: clock, logger: logger, metrics: metrics, loop: loop,
                                      writer: writer, directory: directory, shared: seams.shared, bus: bus, steps: seams.steps,
                                      entrantLists: entrantLists)
        draws = DrawCoordinator(config: config, clock: clock, random: random, logger: logger, metrics: metrics,
                                executor: loop.executor, loadPlayers: loadPlayers, sources: sources, bus: bus,
                                loop: loop, storage: storage, directory: directory, gate: seams.gate, steps: seams.steps,
                                shared: seams.shared)
        changes = RoomChanges(config: config, clock: clock, logger: logger, executor: loop.executor, storage: storage,
                              directory: directory, broadcaster: broadcaster, shared: seams.shared)
        scheduler = DrawScheduler(config: config, clock: clock, random: random, logger: logger, metrics: metrics, loop: loop,
                                  storage: storage, directory: directory, broadcaster: broadcaster, draws: draws,
                                  shared: seams.shared)
        // The hooks back: a client leaving its room changes the room's viewers; a room made or
        // freed is (un)subscribed to the bus; what rooms share (cluster mode) reaches them.
        let broadcaster = self.broadcaster
        writer.leaveRoom = { [unowned broadcaster] client in broadcaster.leaveRoom(client) }
        directory.roomMade = { [unowned broadcaster] room in broadcaster.roomMade(room) }
        directory.roomFreed = { [unowned broadcaster] room in broadcaster.roomFreed(room) }
        let scheduler = self.scheduler
        directory.scheduledDraw = { [unowned scheduler] name in scheduler.commitment(ofRoom: name) }
        seams.shared.attach(directory: directory, broadcaster: broadcaster)
    }

    /// Forgets every room and closing client (teardown).
    func removeAll() {
        directory.removeAll()
        writer.removeAll()
    }
}
