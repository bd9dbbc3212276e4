import DrawCore
import Foundation

/// A `DrawSession` driven by hand: the test says when each input happens (milliseconds from an
/// origin, on both clocks) and reads back the effects. No clock, no thread, no socket.
struct SessionHarness {
    static let ms: UInt64 = 1_000_000
    static let epochOrigin = 1_732_262_400_000.0
    /// 4 rounds 100 ms apart: after `started`, rounds at +100...+400 and the result at +500.
    static let schedule = RoundSchedule(rounds: 4, pace: .fixed(intervalMs: 100))!
    static let players = MergeResult(players: Fixtures.samplePlayers, warnings: [])
    static let sources = DrawSources(usersURL: "http://users.test/users.json", lotteryURL: "http://users.test/lottery.json")

    var session: DrawSession

    init(records: Bool, winners: Int = 1, reveal: WinnerRevealMode = .eachRunningOn, beacon: BeaconSettings? = nil) {
        let random = CountingRandom()
        session = DrawSession(configuration: .init(
            room: "lobby", planner: PlanDraw(random: random, schedule: Self.schedule, winners: winners, reveal: reveal),
            random: random,
            sources: Self.sources, recordsDraws: records, beacon: beacon))
    }

    /// Both clock readings at `ms` milliseconds after the origin.
    static func at(_ ms: UInt64) -> DrawInstant {
        DrawInstant(epochMs: epochOrigin + Double(ms), nanos: ms * Self.ms)
    }

    mutating func feed(_ input: DrawInput) -> [DrawEffect] { session.handle(input) }

    mutating func start(at ms: UInt64 = 0) -> [DrawEffect] { feed(.startRequested(at: Self.at(ms))) }

    mutating func load(attempt: UInt64? = nil, at ms: UInt64) -> [DrawEffect] {
        feed(.playersLoaded(attempt: attempt ?? session.attempts, .success(Self.players), at: Self.at(ms)))
    }

    mutating func written(_ write: DrawWrite, failing: Bool = false, at ms: UInt64) -> [DrawEffect] {
        let error: StorageError? = failing ? .writeFailed(path: "test.sqlite", operation: write.operation, reason: "injected") : nil
        return feed(.written(write, error: error, at: Self.at(ms)))
    }

    mutating func timer(at ms: UInt64) -> [DrawEffect] { feed(.timerDue(at: Self.at(ms))) }

    /// Starts a draw and, with records, makes its plan durable: `started` goes out at `ms`.
    /// Returns the plan.
    mutating func started(at ms: UInt64 = 10) -> DrawPlan {
        _ = start()
        let effects = load(at: ms)
        if case .write(let plan)? = effects.first, case .started = plan { _ = written(plan, at: ms) }
        guard case .running(let plan, _, _) = session.visible else { fatalError("the draw did not start") }
        return plan
    }
}

/// Distinct bytes on every call, so each plan and each failed record gets its own id.
final class CountingRandom: RandomSource, @unchecked Sendable {
    // `next` is guarded by `lock` (tests call from one thread, but the protocol is Sendable).
    private let lock = NSLock()
    private var next: UInt8 = 0
    func bytes(_ count: Int) -> [UInt8] {
        lock.withLock {
            (0..<count).map { _ in next &+= 1; return next }
        }
    }
}

extension DrawEffect {
    /// A short name, so a test states the order of effects in one line.
    var label: String {
        switch self {
        case .publish(let e):
            switch e {
            case .loading: return "publish loading"
            case .started: return "publish started"
            case .round(_, let i, _): return "publish round \(i + 1)"
            case .finished: return "publish finished"
            case .failed(let error): return "publish failed \(error.code)"
            case .aborted(_, let shown, let reason): return "publish aborted \(reason) after \(shown)"
            case .winner(_, let slot, _, let next):
                switch next {
                case .runsOn: return "publish winner \(slot) then auto"
                case .awaitingHost: return "publish winner \(slot) then host"
                case .finished: return "publish winner \(slot) last"
                }
            case .nextWinner(_, let slot, _): return "publish next \(slot)"
            }
        case .loadPlayers(let attempt): return "load \(attempt)"
        case .write(let w): return "write \(w.operation)"
        case .wake(let at): return "wake \(at / SessionHarness.ms)"
        case .cancelWake: return "cancel wake"
        case .fetchBeacon(_, _, let round): return "fetch beacon \(round)"
        }
    }
}

extension Array where Element == DrawEffect {
    var labels: [String] { map(\.label) }
    var events: [DrawEvent] { compactMap { if case .publish(let e) = $0 { return e } else { return nil } } }
    var writes: [DrawWrite] { compactMap { if case .write(let w) = $0 { return w } else { return nil } } }
}
