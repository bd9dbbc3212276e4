/// One room's draw as a state machine: inputs in (`DrawInput`), effects out (`DrawEffect`).
///
/// A pure value: it reads no clock (times arrive inside the inputs), starts no thread, touches
/// no socket or disk. The server is the shell that feeds it and performs what it asks (publish on
/// the bus, load the players, write the record, arm a timer), so every rule of a draw is tested
/// here, in microseconds, and holds the same on any transport.
///
/// Lifecycle: idle → `startRequested` publishes `loading` and asks for the players →
/// `playersLoaded` publishes `failed` (idle again) or plans the draw → the plan is written
/// (`started` write) and only once it is durable is `started` published, stamped with that
/// moment, and its stamp written (`startedAt`) → each `timerDue` publishes the next `round` when
/// `DrawPacer` says it is due, then writes its stamp → one gap after the last round the result is
/// written, and once it is durable `finished` is published → idle. Without records
/// (`Configuration.recordsDraws == false`) no write is asked for and each step follows at once.
///
/// Why the two waits: the seed behind a published commitment must survive a crash, so nothing
/// is published before the plan's write returned; and a result must never be announced that the
/// history could later contradict, so `finished` waits for its write. Rounds do not wait: their
/// stamps queue behind the start, and a failed stamp aborts the draw (`aborted`, seed revealed).
///
/// Why the schedule starts when `started` goes out, not when the draw was planned: the plan's
/// write may wait behind other rooms' writes, and that wait must not eat into round 1's lead. A
/// late round pushes the next one back by as much (`DrawPacer`): viewers watch the gaps, so a late
/// server never sends two rounds together to catch up.
public struct DrawSession: Sendable {
    /// What a session needs to know beyond its inputs.
    public struct Configuration: Sendable {
        public let room: String
        /// Plans a draw from its players (draws the seed and the draw id); set per draw by
        /// `prepare(planner:sources:)` (a room's settings).
        public internal(set) var planner: PlanDraw
        /// Fresh ids for the records of draws that failed before they had a plan.
        public let random: any RandomSource
        /// Where the players come from, for the records; set per draw like `planner`.
        public internal(set) var sources: DrawSources
        /// Whether draws are recorded: without a store nothing is written, and nothing waits.
        public let recordsDraws: Bool
        /// Set when draws commit to a beacon round (`docs/FAIRNESS.md` §9); `nil`: today's scheme.
        public let beacon: BeaconSettings?

        public init(room: String, planner: PlanDraw, random: any RandomSource, sources: DrawSources,
                    recordsDraws: Bool, beacon: BeaconSettings? = nil) {
            self.beacon = beacon
            self.room = room
            self.planner = planner
            self.random = random
            self.sources = sources
            self.recordsDraws = recordsDraws
        }
    }

    /// A planned draw, from its plan's write to its end.
    public struct Running: Sendable, Hashable {
        public internal(set) var plan: DrawPlan
        /// When the host asked for the draw (the `loading` time).
        public let createdAt: Double
        /// When `started` went out (epoch ms). Until then, while the plan is being written, the
        /// time it was planned, which the plan's record holds until the `startedAt` write.
        public internal(set) var startedAt: Double
        /// When each step is due; paced from when `started` went out.
        public internal(set) var pacer: DrawPacer
        /// `sentAt` of every round published so far, in order.
        public internal(set) var shown: [Double]
        /// The winner whose flips are being shown (1 until winner 1 is revealed, in a draw that
        /// reveals each winner; always 1 otherwise).
        public internal(set) var slot = 1
        /// When the current winner's flips started counting (epoch ms): `startedAt` for winner 1.
        public internal(set) var slotStartedAt: Double? = nil
        /// Winners revealed so far (`winner` published).
        public internal(set) var revealedSlots = 0
        /// Set while the draw waits for the host's "draw the next winner": when the wait began
        /// (monotonic), so that a host who left does not hold the room for ever.
        public internal(set) var awaitingHostSince: UInt64? = nil
        /// Whether a fetch of the beacon's round is out (`DrawEffect.fetchBeacon`), in a draw whose
        /// plan awaits it.
        public internal(set) var fetchingBeacon = false
    }

    /// Where the draw is.
    public enum Phase: Sendable, Hashable {
        case idle
        case loading(attempt: UInt64, createdAt: Double)
        /// The plan is being written; `started` is published once it is durable.
        case recordingStart(Running)
        case running(Running)
        /// Every round was shown; the result is being written and `finished`, stamped
        /// `finishedAt`, is published once it is durable.
        case recordingResult(Running, finishedAt: Double)
    }

    /// What viewers have been told of the current draw: what a room's snapshot shows.
    public enum Visible: Sendable, Hashable {
        case idle
        /// `loading` was published and `started` not yet (the plan may be being written).
        case loading
        /// `started` was published; `shown` holds `sentAt` of every round published.
        case running(DrawPlan, startedAt: Double, shown: [Double])

        /// The running draw's id (`nil` while idle or loading: it has no plan yet).
        public var drawId: String? {
            if case .running(let plan, _, _) = self { return plan.drawId }
            return nil
        }
    }

    /// The pause between a winner's reveal and the next winner's start when the draw runs on, so
    /// the audience sees each name; the next winner's flips then follow its lead as winner 1's do.
    public static let winnerPauseMs = 2_000
    /// How long a draw waits for the host's "draw the next winner" before it runs on by itself:
    /// a host who left must not hold the room (and its next draws) for ever.
    public static let hostWaitLimitMs = 15 * 60_000

    /// `aborted.reason` (and `failed.code`) when the record of a draw could not be kept.
    public static let storageFailureReason = "storage_failure"
    /// `aborted.reason` of a draw stopped by `DrawInput.shutdown`.
    public static let shutdownReason = "server_shutdown"
    /// `aborted.reason` of a beacon draw whose round could not be fetched in time: no pick was
    /// made, and the revealed seed was never used.
    public static let beaconUnavailableReason = "beacon_unavailable"

    public internal(set) var configuration: Configuration
    public internal(set) var phase: Phase = .idle
    /// Attempts started so far; the current one's number tags its `loadPlayers`.
    public internal(set) var attempts: UInt64 = 0
    /// `loadPlayers` and `write` effects not yet answered (`playersLoaded`, `written`).
    public internal(set) var outstanding = 0
    /// Set by `shutdown`: no draw starts any more.
    public internal(set) var isShutDown = false

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Sets how the next draw is planned and where its players come from (a room's settings and
    /// list, which change only between draws). Returns false, changing nothing, while busy: a
    /// draw keeps what it started with.
    @discardableResult
    public mutating func prepare(planner: PlanDraw, sources: DrawSources) -> Bool {
        guard !isBusy else { return false }
        configuration.planner = planner
        configuration.sources = sources
        return true
    }

    /// Whether a draw is loading, running, or waiting for its record.
    public var isBusy: Bool { phase != .idle }

    /// Whether the session is busy or still owed an answer (a load, a write). Its owner must keep
    /// it until this is false, so every answer finds it and no failure goes unlogged.
    public var hasWork: Bool { isBusy || outstanding > 0 }

    /// Whether `startRequested` would start a draw.
    public var canStart: Bool { !isBusy && !isShutDown }

    /// What viewers have been told, from the phase: `started` goes out on leaving
    /// `recordingStart`, and `finished`, `failed` or `aborted` on going idle.
    public var visible: Visible {
        switch phase {
        case .idle: return .idle
        case .loading, .recordingStart: return .loading
        case .running(let r), .recordingResult(let r, _): return .running(r.plan, startedAt: r.startedAt, shown: r.shown)
        }
    }

    /// Where a draw that reveals each winner stands, for snapshots; `nil` unless one is shown.
    public var revealProgress: RevealProgress? {
        guard case .running(let plan, _, _) = visible, plan.revealsEachWinner else { return nil }
        switch phase {
        case .running(let r), .recordingResult(let r, _):
            return RevealProgress(slot: r.slot, slotStartedAt: r.slotStartedAt ?? r.startedAt,
                                  revealed: r.revealedSlots, awaitingHost: r.awaitingHostSince != nil)
        default:
            return nil
        }
    }

    /// Whether `nextWinnerRequested` would start the next winner's flips.
    public var isAwaitingHost: Bool {
        if case .running(let r) = phase { return r.awaitingHostSince != nil }
        return false
    }

    /// Whether a draw's rounds are being shown (between `started` and its end).
    public var isShowingRounds: Bool {
        if case .running = visible { return true }
        return false
    }

    /// Applies `input` and returns what must be done, in order. An input that does not apply
    /// (a start while busy, a stale answer, a timer with nothing to do) returns no effects.
    public mutating func handle(_ input: DrawInput) -> [DrawEffect] {
        switch input {
        case .startRequested(let at):
            return start(at: at)
        case .playersLoaded(let attempt, let result, let at):
            answered()
            return playersLoaded(attempt: attempt, result, at: at)
        case .written(let write, let error, let at):
            answered()
            return written(write, error: error, at: at)
        case .timerDue(let at):
            return timerDue(at: at)
        case .abort(let reason, let at):
            return abort(reason: reason, at: at)
        case .shutdown(let at):
            isShutDown = true
            return abort(reason: Self.shutdownReason, at: at)
        case .redrawRequested(let link, let players, let at):
            return redraw(link, players: players, at: at)
        case .nextWinnerRequested(let at):
            return nextWinner(at: at)
        case .beaconFetched(let drawId, let result, let at):
            answered()
            return beaconFetched(drawId: drawId, result, at: at)
        }
    }

    private mutating func answered() {
        if outstanding > 0 { outstanding -= 1 }
    }
}
