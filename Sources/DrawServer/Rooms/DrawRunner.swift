import DrawCore
import Logging

/// Runs one room's draws — the publisher side of the room event bus.
///
/// Lifecycle: idle → `start()` publishes `loading` and asks for players off the service thread
/// → `playersLoaded` publishes `failed` (idle again) or plans the draw and publishes `started`
/// → the timer publishes each `round` at `startedAt + offsetMs` → `finished` at
/// `finishOffsetMs` → idle. One draw at a time per room; rooms are independent.
///
/// Threading: service thread only (its timer is an lws sul timer).
final class DrawRunner {
    /// What a runner needs from the server.
    struct Dependencies {
        let bus: any RoomEventBus
        let clock: any DrawClock
        let planner: PlanDraw
        let metrics: ServerMetrics
        let logger: Logger
        /// Starts loading players off the service thread; the result must come back through
        /// the inbox as `.playersLoaded(room:attempt:_:)`.
        let beginLoading: (_ room: String, _ attempt: UInt64) -> Void
    }

    private struct Running {
        let plan: DrawPlan
        let startedAt: Double
        /// Monotonic reading at `startedAt`; every round is due at `startMono + offset`, so
        /// lateness never accumulates from round to round.
        let startMono: UInt64
        /// Index of the next round to show; `plan.rounds.count` means "finish next".
        var nextRound: Int
    }

    private enum Phase {
        case idle
        case loading(attempt: UInt64)
        case running(Running)
    }

    let room: String
    private let deps: Dependencies
    private var phase: Phase = .idle
    private var attempts: UInt64 = 0
    /// Set by the server right after init (the timer needs the runner to exist).
    var timer: LwsTimer?

    init(room: String, dependencies: Dependencies) {
        self.room = room
        self.deps = dependencies
    }

    /// Whether a draw is loading or running.
    var isBusy: Bool {
        if case .idle = phase { return false }
        return true
    }

    /// Starts a draw. The caller has checked the host key. Returns false when one is busy.
    func start() -> Bool {
        guard !isBusy else { return false }
        attempts += 1
        phase = .loading(attempt: attempts)
        deps.logger.info("draw loading", metadata: ["room": "\(room)"])
        deps.bus.publish(.loading(at: deps.clock.epochMillis()), room: room)
        deps.beginLoading(room, attempts)
        return true
    }

    /// The players of attempt `attempt` arrived. Stale attempts (aborted meanwhile) are dropped.
    func playersLoaded(attempt: UInt64, _ result: Result<MergeResult, DrawError>) {
        guard case .loading(let current) = phase, current == attempt else { return }
        switch result {
        case .failure(let error):
            phase = .idle
            deps.metrics.drawFailed(code: error.code)
            deps.logger.warning("draw failed", metadata: ["room": "\(room)", "code": "\(error.code)"])
            deps.bus.publish(.failed(error), room: room)
        case .success(let merge):
            let plan = deps.planner.execute(merge)
            let running = Running(plan: plan, startedAt: deps.clock.epochMillis(),
                                  startMono: deps.clock.monotonicNanos(), nextRound: 0)
            phase = .running(running)
            deps.metrics.drawStarted()
            deps.logger.info("draw started", metadata: [
                "room": "\(room)", "drawId": "\(plan.drawId)", "entrants": "\(plan.entrants.count)",
            ])
            deps.bus.publish(.started(plan, startedAt: running.startedAt), room: room)
            scheduleNext(running)
        }
    }

    /// Shutdown: a running draw ends as `aborted` (seed revealed); a loading one is forgotten.
    func abort(reason: String) {
        timer?.cancel()
        switch phase {
        case .idle:
            return
        case .loading:
            phase = .idle
        case .running(let r):
            phase = .idle
            deps.logger.info("draw aborted", metadata: ["room": "\(room)", "drawId": "\(r.plan.drawId)", "reason": "\(reason)"])
            deps.bus.publish(.aborted(r.plan, roundsShown: r.nextRound, reason: reason), room: room)
        }
    }

    /// Timer callback: show the next round, or finish.
    func timerFired() {
        guard case .running(var r) = phase else { return }
        let plan = r.plan
        if r.nextRound < plan.rounds.count {
            let index = r.nextRound
            let due = r.startMono &+ UInt64(plan.rounds[index].offsetMs) * 1_000_000
            let now = deps.clock.monotonicNanos()
            deps.metrics.roundLateness(nanos: now > due ? now - due : 0)
            // sentAt is stamped here, immediately before this round's fan-out starts (the
            // in-process bus delivers synchronously).
            let sentAt = deps.clock.epochMillis()
            r.nextRound += 1
            phase = .running(r)
            deps.bus.publish(.round(plan, index: index, sentAtMs: sentAt), room: room)
            scheduleNext(r)
        } else {
            phase = .idle
            let finishedAt = deps.clock.epochMillis()
            deps.metrics.drawFinished(outcome: plan.outcome.wireName)
            deps.logger.info("draw finished", metadata: ["room": "\(room)", "drawId": "\(plan.drawId)"])
            deps.bus.publish(.finished(plan, startedAt: r.startedAt, finishedAt: finishedAt), room: room)
        }
    }

    private func scheduleNext(_ r: Running) {
        let offsetMs = r.nextRound < r.plan.rounds.count ? r.plan.rounds[r.nextRound].offsetMs : r.plan.finishOffsetMs
        let due = r.startMono &+ UInt64(offsetMs) * 1_000_000
        let now = deps.clock.monotonicNanos()
        timer?.schedule(afterNanos: due > now ? due - now : 0)
    }
}

extension DrawOutcome {
    /// The `outcome` value of the `finished` message, also the metrics label.
    var wireName: String {
        switch self {
        case .winner: return "winner"
        case .noWinner: return "void"
        }
    }
}
