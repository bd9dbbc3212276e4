import DrawCore
import DrawPresentation
import Logging

/// The shell around one room's `DrawSession`: it feeds the session what happens (with clock
/// readings) and performs what the session asks — publish on the room event bus, begin loading,
/// hand writes to the storage thread, arm the timer — and derives metrics and logs from those
/// effects (`DrawRunner+Effects.swift`). Every decision about a draw is the session's; see there
/// for the rules (commitment only once the seed is durable, abort on a storage failure, ...).
///
/// Threading: service thread only (its timer is an lws sul timer; loads and store results arrive
/// through the inbox as `playersLoaded(attempt:_:)` and `recorded(_:error:)`).
final class DrawRunner {
    /// What a runner needs from the server.
    struct Dependencies {
        let bus: any RoomEventBus
        let clock: any DrawClock
        let planner: PlanDraw
        let metrics: ServerMetrics
        let logger: Logger
        /// Fresh ids for the records of draws that failed before they had a plan.
        let random: any RandomSource
        /// Where the players come from, for the records.
        let sources: DrawSources
        /// Starts loading players off the service thread; the result must come back through
        /// the inbox as `.playersLoaded(room:attempt:_:)`.
        let beginLoading: (_ room: String, _ attempt: UInt64) -> Void
        /// Hands a write to the storage thread; its result must come back through the inbox as
        /// `.recorded(room:_:error:)`. `nil` when the server keeps no records.
        let record: ((DrawWrite) -> Void)?
        /// Draws commit to a beacon round (`ServerConfig.beacon`); `nil`: the seed alone.
        var beacon: BeaconSettings? = nil
        /// Starts fetching beacon round `round` for draw `drawId` off the service thread; the
        /// result must come back as `beaconFetched(drawId:_:)`.
        var fetchBeacon: (_ drawId: String, _ round: UInt64) -> Void = { _, _ in }
        /// Whether the draw's next step may be taken now: no step of it is still on its way to
        /// the record (`DrawStepLog.isAppending`); and a way to wait until it may (true) or never
        /// will (false: the record refused the draw).
        var mayShow: () -> Bool = { true }
        var awaitShow: (@escaping (Bool) -> Void) -> Void = { $0(true) }
    }

    let room: String
    let deps: Dependencies
    /// The draw's state: the one source of truth about its phase (the room asks it too).
    private(set) var session: DrawSession
    /// Set by the server right after init (the timer needs the runner to exist).
    var timer: (any ServiceTimer)?
    /// The monotonic time the armed timer is due at: a round's lateness is measured against it.
    var wakeDueNanos: UInt64?
    /// When the result's write was handed off, for `livedraw_result_write_seconds`.
    var resultWriteSince: UInt64?
    /// Inputs held back while a step of the draw is not durable yet (cluster mode: its fenced
    /// entry is not acknowledged, Redis being slow or out of reach), fed in order once it is
    /// (`feed`), so the draw never runs ahead of its record.
    private var held: [DrawInput] = []

    init(room: String, dependencies: Dependencies) {
        self.room = room
        self.deps = dependencies
        session = DrawSession(configuration: .init(room: room, planner: dependencies.planner,
                                                   random: dependencies.random, sources: dependencies.sources,
                                                   recordsDraws: dependencies.record != nil,
                                                   beacon: dependencies.beacon))
    }

    /// Whether a draw is loading, running, or waiting for its record.
    var isBusy: Bool { session.isBusy }

    /// Whether the runner is busy or still owed an answer (a load, a write). A room is only
    /// freed (`RoomRegistry`) when this is false, so no answer ever arrives for a runner that
    /// is gone, and no record's failure goes unlogged.
    var hasWork: Bool { session.hasWork }

    /// Sets how the next draw is planned and where its players come from (the room's settings
    /// and list); ignored while a draw is busy (see `DrawSession.prepare`).
    func prepare(planner: PlanDraw, sources: DrawSources) {
        session.prepare(planner: planner, sources: sources)
    }

    /// Starts a draw. The caller has checked the host key. Returns false when one is busy.
    func start() -> Bool {
        guard session.canStart else { return false }
        feed(.startRequested(at: deps.clock.instant()))
        return true
    }

    /// Redraws a removed winner (`RedrawLink.make` decided it). Returns false when one is busy.
    func redraw(_ link: RedrawLink, players: MergeResult) -> Bool {
        guard session.canStart else { return false }
        feed(.redrawRequested(link, players, at: deps.clock.instant()))
        return true
    }

    /// Starts a scheduled draw from its committed inputs (issue 30). Returns false when one is busy.
    func startScheduled(_ draw: ScheduledDraw) -> Bool {
        guard session.canStart else { return false }
        feed(.scheduledDue(draw, at: deps.clock.instant()))
        return true
    }

    /// Starts the next winner's flips. Returns false when no draw waits for it.
    func nextWinner() -> Bool {
        guard session.isAwaitingHost else { return false }
        feed(.nextWinnerRequested(at: deps.clock.instant()))
        return true
    }

    /// The players of attempt `attempt` arrived. Stale attempts (aborted meanwhile) are dropped.
    func playersLoaded(attempt: UInt64, _ result: Result<MergeResult, DrawError>) {
        feed(.playersLoaded(attempt: attempt, result, at: deps.clock.instant()))
    }

    /// The beacon round asked for by `fetchBeacon` arrived, or could not be had. A failure is
    /// logged here; the session decides whether to retry or give up.
    func beaconFetched(drawId: String, _ result: Result<BeaconRound, BeaconFetchError>) {
        if case .failure(let error) = result {
            deps.logger.warning("beacon round not fetched", metadata: [
                "room": "\(room)", "drawId": "\(drawId)", "error": "\(error.message)",
            ])
        }
        feed(.beaconFetched(drawId: drawId, result, at: deps.clock.instant()))
    }

    /// `write` returned from the storage thread; `error` is `nil` when it is on disk. A failure
    /// is logged and counted here, whatever the session makes of it.
    func recorded(_ write: DrawWrite, error: StorageError?) {
        if let error {
            deps.metrics.storageFailed(operation: write.operation)
            deps.logger.error("could not record the draw", metadata: [
                "room": "\(room)", "drawId": "\(write.drawId)", "operation": "\(write.operation)",
                "error": "\(error.description)",
            ])
        }
        feed(.written(write, error: error, at: deps.clock.instant()))
    }

    /// Timer callback: show the next round, or finish.
    func timerFired() {
        feed(.timerDue(at: deps.clock.instant()))
    }

    /// Stops the draw for `reason` (see `DrawInput.abort`).
    func abort(reason: String) {
        feed(.abort(reason: reason, at: deps.clock.instant()))
    }

    /// Shutdown: aborts with `server_shutdown` and refuses later starts (see `DrawInput.shutdown`).
    func shutdown() {
        feed(.shutdown(at: deps.clock.instant()))
    }

    /// Feeds `input` to the session and performs what it asks — unless a step of the draw is not
    /// durable yet: then the input waits, with those after it, until the step log answers
    /// (`Dependencies.awaitShow`). An input that stops the draw is never held.
    private func feed(_ input: DrawInput) {
        if !input.stops, !held.isEmpty || (session.isBusy && !deps.mayShow()) {
            // One wake-up held is the wake-up: a second would show two steps at once.
            if case .timerDue = input, held.contains(where: { if case .timerDue = $0 { true } else { false } }) { return }
            held.append(input)
            if held.count == 1 { deps.awaitShow { [weak self] mayGoOn in self?.release(mayGoOn) } }
            return
        }
        let effects = session.handle(input)
        perform(effects, for: input)
    }

    /// The step log answered: the held inputs are fed now, at this time. When the draw may not go
    /// on (the record refused it: another lease holds the room) and nobody stopped it meanwhile,
    /// it is aborted first.
    private func release(_ mayGoOn: Bool) {
        let inputs = held
        held = []
        if !mayGoOn, session.isBusy { abort(reason: "interrupted") }
        for input in inputs { feed(input.restamped(at: deps.clock.instant())) }
    }
}
