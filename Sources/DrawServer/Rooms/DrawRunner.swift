import DrawCore
import DrawPresentation
import Logging

/// Runs one room's draws — the publisher side of the room event bus.
///
/// Lifecycle: idle → `start()` publishes `loading` and asks for players off the service thread
/// → `playersLoaded` publishes `failed` (idle again) or plans the draw → the plan is recorded
/// (`insertStarted`) and only then `started` is published, stamped with the moment it goes out
/// (`stampStarted` records that time) → the timer publishes each `round` when `DrawPacer` says it
/// is due, each recorded after its fan-out → the result is recorded one gap after the last round
/// and, once it is on disk, `finished` is published → idle. One draw at a time per room; rooms
/// are independent. Without a store (`Dependencies.record == nil`) the record steps are skipped
/// and everything follows at once.
///
/// Why the two waits: the seed behind a published commitment must survive a crash, so nothing
/// is published before `insertStarted` returned; and a result must never be announced that the
/// history could later contradict, so `finished` waits for `finish(.finished)`. Rounds do not
/// wait: their stamps are queued in order behind the start, and a failed stamp aborts the draw
/// (see `DrawRunner+Records.swift`).
///
/// Why the schedule starts when `started` goes out, not when the draw was planned: the plan's
/// write may wait behind other rooms' writes, and that wait must not eat into round 1's lead. And
/// a late round pushes the next one back by as much (`DrawPacer`): viewers watch the gaps, so a
/// late server never sends two rounds together to catch up.
///
/// Threading: service thread only (its timer is an lws sul timer; store results arrive through
/// the inbox as `recorded(_:error:)`).
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
    }

    struct Running {
        let plan: DrawPlan
        /// When the host asked for the draw (the `loading` time).
        let createdAt: Double
        /// When `started` went out (epoch ms). Until then, while the plan is being recorded, the
        /// time it was planned, which is what `insertStarted` stores until `stampStarted`.
        var startedAt: Double
        /// When each step is due; set when `started` goes out.
        var pacer: DrawPacer
        /// Index of the next round to show; `plan.rounds.count` means "finish next".
        var nextRound: Int
    }

    enum Phase {
        case idle
        case loading(attempt: UInt64, createdAt: Double)
        /// The plan is being written; `started` is published when the write returns.
        case recordingStart(Running)
        case running(Running)
        /// Every round was shown; the result is being written (since `since`, monotonic) and
        /// `finished`, stamped `finishedAt`, is published when the write returns.
        case recordingResult(Running, finishedAt: Double, since: UInt64)
    }

    /// `aborted.reason` when the record of a draw could not be kept.
    static let storageFailureReason = "storage_failure"

    let room: String
    let deps: Dependencies
    var phase: Phase = .idle
    private var attempts: UInt64 = 0
    /// Player loads and store writes handed off and not yet answered through the inbox.
    private var outstanding = 0
    /// Set by the server right after init (the timer needs the runner to exist).
    var timer: (any DrawTimer)?

    init(room: String, dependencies: Dependencies) {
        self.room = room
        self.deps = dependencies
    }

    /// Whether a draw is loading, running, or waiting for its record.
    var isBusy: Bool {
        if case .idle = phase { return false }
        return true
    }

    /// Whether the runner is busy or still owed an answer (a load, a write). A room is only
    /// freed (`RoomRegistry`) when this is false, so no answer ever arrives for a runner that
    /// is gone, and no record's failure goes unlogged.
    var hasWork: Bool { isBusy || outstanding > 0 }

    /// Starts a draw. The caller has checked the host key. Returns false when one is busy.
    func start() -> Bool {
        guard !isBusy else { return false }
        attempts += 1
        let now = deps.clock.epochMillis()
        phase = .loading(attempt: attempts, createdAt: now)
        deps.logger.info("draw loading", metadata: ["room": "\(room)"])
        deps.bus.publish(.loading(at: now), room: room)
        outstanding += 1
        deps.beginLoading(room, attempts)
        return true
    }

    /// The players of attempt `attempt` arrived. Stale attempts (aborted meanwhile) are dropped.
    func playersLoaded(attempt: UInt64, _ result: Result<MergeResult, DrawError>) {
        answered()
        guard case .loading(let current, let createdAt) = phase, current == attempt else { return }
        switch result {
        case .failure(let error):
            fail(error, createdAt: createdAt)
        case .success(let merge):
            let plan = deps.planner.execute(merge)
            // Provisional times: `begin` stamps both again when `started` actually goes out, after
            // the plan's write, and the rounds are paced from there.
            let running = Running(plan: plan, createdAt: createdAt, startedAt: deps.clock.epochMillis(),
                                  pacer: DrawPacer(schedule: plan.schedule, startedNanos: deps.clock.monotonicNanos()),
                                  nextRound: 0)
            let record = NewDrawRecord(room: room, plan: plan, sources: deps.sources,
                                       createdAt: createdAt, startedAt: running.startedAt)
            if submit(.started(record)) {
                phase = .recordingStart(running)
            } else {
                begin(running)
            }
        }
    }

    /// Shutdown. A running draw ends as `aborted` (seed revealed) and its record follows; a loading
    /// one is forgotten; one whose plan is being recorded is dropped unpublished (its record is
    /// closed behind the insert); one whose result is being recorded is left to finish — the
    /// server waits for the storage queue before it closes the clients, so they still get it.
    func abort(reason: String) {
        switch phase {
        case .idle, .recordingResult:
            return
        case .loading:
            timer?.cancel()
            phase = .idle
        case .recordingStart(let r):
            phase = .idle
            deps.logger.info("draw dropped before it was published", metadata: [
                "room": "\(room)", "drawId": "\(r.plan.drawId)", "reason": "\(reason)",
            ])
            // Queued behind the insert: if the insert made it to disk, this closes the record;
            // if not, it fails as `unknownDraw`, which is only logged.
            submit(.finish(drawId: r.plan.drawId, ending: .aborted(reason: reason), finishedAt: deps.clock.epochMillis(),
                           seed: r.plan.seed))
        case .running(let r):
            end(r, reason: reason)
        }
    }

    /// Timer callback: show the next round, or finish.
    func timerFired() {
        guard case .running(var r) = phase else { return }
        let plan = r.plan
        let now = deps.clock.monotonicNanos()
        if r.nextRound < plan.rounds.count {
            let index = r.nextRound
            // Against when it was due (planned, or one gap after a late previous round), so a
            // late round is counted once, not again in every round after it.
            deps.metrics.roundLateness(nanos: r.pacer.latenessNanos(at: now))
            // sentAt is stamped here, immediately before this round's fan-out starts (the
            // in-process bus delivers synchronously).
            let sentAt = deps.clock.epochMillis()
            r.pacer.sent(atNanos: now)
            r.nextRound += 1
            phase = .running(r)
            deps.bus.publish(.round(plan, index: index, sentAtMs: sentAt), room: room)
            // After the fan-out, with the very sentAt the wire carried. Not waited for: the
            // storage thread keeps the stamps in order, and a failure aborts the draw.
            submit(.round(drawId: plan.drawId, round: plan.rounds[index].round, sentAt: sentAt))
            scheduleNext(r)
        } else {
            r.pacer.sent(atNanos: now)
            let finishedAt = deps.clock.epochMillis()
            if submit(.finish(drawId: plan.drawId, ending: .finished, finishedAt: finishedAt, seed: plan.seed)) {
                phase = .recordingResult(r, finishedAt: finishedAt, since: now)
            } else {
                announce(r, finishedAt: finishedAt)
            }
        }
    }

    // MARK: steps (also used by DrawRunner+Records)

    /// The plan is on disk (or there is no store): publish `started`, stamped now, and pace the
    /// rounds from this moment; then record the stamp (queued behind the plan's insert).
    func begin(_ planned: Running) {
        var r = planned
        r.startedAt = deps.clock.epochMillis()
        r.pacer = DrawPacer(schedule: r.plan.schedule, startedNanos: deps.clock.monotonicNanos())
        phase = .running(r)
        deps.metrics.drawStarted()
        deps.logger.info("draw started", metadata: [
            "room": "\(room)", "drawId": "\(r.plan.drawId)", "entrants": "\(r.plan.entrants.count)",
        ])
        deps.bus.publish(.started(r.plan, startedAt: r.startedAt), room: room)
        submit(.startedAt(drawId: r.plan.drawId, startedAt: r.startedAt))
        scheduleNext(r)
    }

    /// The result is on disk (or there is no store): publish `finished`.
    func announce(_ r: Running, finishedAt: Double) {
        phase = .idle
        deps.metrics.drawFinished(outcome: r.plan.outcome.wireName)
        deps.logger.info("draw finished", metadata: ["room": "\(room)", "drawId": "\(r.plan.drawId)"])
        deps.bus.publish(.finished(r.plan, startedAt: r.startedAt, finishedAt: finishedAt), room: room)
    }

    /// No draw: publish `failed` and record the attempt.
    func fail(_ error: DrawError, createdAt: Double) {
        phase = .idle
        let failedAt = deps.clock.epochMillis()
        deps.metrics.drawFailed(code: error.code)
        deps.logger.warning("draw failed", metadata: ["room": "\(room)", "code": "\(error.code)"])
        deps.bus.publish(.failed(error), room: room)
        submit(.failed(FailedDrawRecord(drawId: DrawIdentifier.generate(using: deps.random), room: room,
                                        error: error, sources: deps.sources, createdAt: createdAt, failedAt: failedAt)))
    }

    /// Stops a published draw early: `aborted` with the seed (so the rounds shown stay
    /// verifiable), then the record. The broadcast does not wait for the write: revealing the
    /// seed of a stopped draw is always allowed (startup recovery would reveal it too).
    func end(_ r: Running, reason: String) {
        timer?.cancel()
        phase = .idle
        deps.metrics.drawAborted(reason: reason)
        deps.logger.info("draw aborted", metadata: ["room": "\(room)", "drawId": "\(r.plan.drawId)", "reason": "\(reason)"])
        deps.bus.publish(.aborted(r.plan, roundsShown: r.nextRound, reason: reason), room: room)
        submit(.finish(drawId: r.plan.drawId, ending: .aborted(reason: reason), finishedAt: deps.clock.epochMillis(),
                           seed: r.plan.seed))
    }

    /// Hands `write` to the storage thread. False when there is no store (nothing to wait for).
    @discardableResult
    private func submit(_ write: DrawWrite) -> Bool {
        guard let record = deps.record else { return false }
        outstanding += 1
        record(write)
        return true
    }

    /// A load or a write came back (`DrawRunner+Records` too).
    func answered() {
        if outstanding > 0 { outstanding -= 1 }
    }

    private func scheduleNext(_ r: Running) {
        timer?.schedule(afterNanos: r.pacer.delayNanos(from: deps.clock.monotonicNanos()))
    }
}
