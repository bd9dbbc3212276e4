import DrawCore
import DrawPresentation
import Logging

/// Starting and running rooms' draws: each room's `DrawRunner` (made on its first draw, with
/// its timer), the checks before a start and the gate it goes through (`DrawStartGate`), what the
/// next draw is made of (the room's settings and list), where its players come from
/// (`+Loading`), and its records. The runner's answers (players loaded, writes done) come back
/// to that runner itself as service-thread jobs (`ServiceExecutor.continuation`), never by looking
/// its room up by name. Service thread only.
final class DrawCoordinator {
    let config: ServerConfig
    let clock: any DrawClock
    let random: any RandomSource
    let logger: Logger
    let metrics: ServerMetrics
    let executor: ServiceExecutor
    /// Fetches and merges the operator's lists (off the service thread).
    let loadPlayers: @Sendable () async throws(DrawError) -> MergeResult
    /// The operator's list URLs, for the records.
    let sources: DrawSources
    let bus: any RoomEventBus
    unowned let loop: any RoomLoop
    unowned let storage: ServerStorage
    unowned let directory: RoomDirectory
    let gate: any DrawStartGate
    /// Where the draws' steps are made durable; the runner's next step waits for the last one.
    let steps: any DrawStepLog
    let shared: any SharedRooms

    init(config: ServerConfig, clock: any DrawClock, random: any RandomSource, logger: Logger, metrics: ServerMetrics,
         executor: ServiceExecutor, loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult,
         sources: DrawSources, bus: any RoomEventBus, loop: any RoomLoop, storage: ServerStorage,
         directory: RoomDirectory, gate: any DrawStartGate, steps: any DrawStepLog, shared: any SharedRooms) {
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.metrics = metrics
        self.executor = executor
        self.loadPlayers = loadPlayers
        self.sources = sources
        self.bus = bus
        self.loop = loop
        self.storage = storage
        self.directory = directory
        self.gate = gate
        self.steps = steps
        self.shared = shared
    }

    var phase: ServerPhase { loop.phase }

    /// Starts a draw after checking the host key in constant time; `answer` gets `nil` when it
    /// is accepted: at once on one node, once the room's lease is taken in a cluster.
    /// `reveal` is the host's start option for several winners (`nil`: one at a time, running on).
    func startDraw(in room: Room, hostKey: String?, reveal: WinnerRevealMode? = nil,
                   then answer: @escaping (ClientErrorCode?) -> Void) {
        gate.admit(room, refusal: { [unowned self] in refuseStart(in: room, hostKey: hostKey) }, start: { [unowned self] in
            guard startRunner(of: room, reveal: reveal) else { return .drawRunning }
            directory.touch(room)
            return nil
        }, then: answer)
    }

    /// The checks before any start: the host key in constant time, then the server's state.
    func refuseStart(in room: Room, hostKey: String?) -> ClientErrorCode? {
        guard let hostKey, !hostKey.isEmpty else { return .unauthorized }
        guard room.keyHash.matches(hostKey) else { return .forbidden }
        return refuseAnyStart(in: room)
    }

    /// The server's and the room's checks before any start, the host's or a scheduled draw's.
    func refuseAnyStart(in room: Room) -> ClientErrorCode? {
        guard !phase.shuttingDown else { return .shuttingDown }
        guard !phase.refusesNewDraws else { return .draining }
        guard !room.deleting else { return .unknownRoom }
        // A list or settings change on its way to the store: the draw would not know which it gets.
        guard !room.changing else { return .drawRunning }
        return nil
    }

    /// Starts the room's draw with its settings and list as they are now (a draw keeps them to
    /// its end). False when one is busy.
    private func startRunner(of room: Room, reveal: WinnerRevealMode?) -> Bool {
        let runner = runner(of: room)
        runner.prepare(planner: PlanDraw(random: random, schedule: room.schedule(defaults: config.schedule),
                                         winners: room.settings.winnerCount, reveal: reveal ?? .eachRunningOn),
                       sources: room.entrants?.sources ?? room.sourceURLs ?? sources)
        return runner.start()
    }

    /// The room's draw runner, made with its timer on the first draw.
    func runner(of room: Room) -> DrawRunner {
        if let runner = room.runner { return runner }
        precondition(loop.isRunning, "draws start while the server runs")
        // The closures below reach the runner made after them; it lives as long as its room keeps it.
        weak var made: DrawRunner?
        var deps = DrawRunner.Dependencies(
            bus: bus, clock: clock, planner: PlanDraw(random: random, schedule: config.schedule),
            metrics: metrics, logger: logger, random: random, sources: sources,
            beginLoading: { [unowned self, unowned room] _, attempt in
                if let runner = made { beginLoading(attempt, of: runner, in: room) }
            },
            record: storage.recordsDraws ? { [unowned self, unowned room] write in
                if let runner = made { record(write, of: runner, in: room) }
            } : nil)
        if let beacon = config.beacon {
            deps.beacon = beacon.settings
            deps.fetchBeacon = { [unowned self] drawId, round in
                if let runner = made { fetchBeacon(round, drawId: drawId, for: runner, source: beacon.source) }
            }
        }
        let name = room.name
        deps.mayShow = { [unowned steps] in !steps.isAppending(name) }
        deps.awaitShow = { [unowned steps] then in steps.whenAppended(name, then: then) }
        let runner = DrawRunner(room: room.name, dependencies: deps)
        made = runner
        runner.timer = loop.makeTimer { [unowned runner] in runner.timerFired() }
        room.runner = runner
        return runner
    }

    /// Hands a draw write to the storage thread; its outcome goes back to `runner`, and a step
    /// on disk is shared with the other nodes (`SharedRooms.recorded`).
    private func record(_ write: DrawWrite, of runner: DrawRunner, in room: Room) {
        shared.recording(write, room: room.name)
        // The room is held until the answer comes (it is not freed while a write is owed anyway).
        _ = storage.record(write) { [unowned self] error in
            runner.recorded(write, error: error)
            if error == nil { shared.recorded(write, room: room.name) }
            directory.roomActivity(room)
        }
    }

    /// What `runner` does when attempt `attempt`'s players are loaded, on the service thread.
    /// Fetches beacon round `round` off the service thread (libcurl's transfer thread); the
    /// answer goes back to `runner` as a service-thread job.
    func fetchBeacon(_ round: UInt64, drawId: String, for runner: DrawRunner, source: any BeaconSource) {
        let done = executor.continuation { [weak runner] (result: Result<BeaconRound, BeaconFetchError>) in
            runner?.beaconFetched(drawId: drawId, result)
        }
        Task.detached { done(await source.round(round)) }
    }

    func playersArrived(for runner: DrawRunner, attempt: UInt64, in room: Room)
        -> (Result<MergeResult, DrawError>) -> Void {
        { [unowned self] result in
            runner.playersLoaded(attempt: attempt, result)
            directory.roomActivity(room)
        }
    }
}
