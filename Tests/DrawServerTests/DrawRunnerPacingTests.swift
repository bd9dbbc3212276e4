import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

/// A runner driven by hand: an injected clock, a timer the test fires, a bus that keeps what was
/// published and when. No sockets: this is the scheduling rule as the server applies it.
@Suite struct DrawRunnerPacingTests {
    /// Monotonic nanoseconds set by the test; the wall clock follows them from an epoch origin.
    final class ManualClock: DrawClock, @unchecked Sendable {
        // `now` is guarded by `lock` (the runner reads it; only the test thread sets it).
        private let lock = NSLock()
        private var now: UInt64 = 0
        var nanos: UInt64 {
            get { lock.withLock { now } }
            set { lock.withLock { now = newValue } }
        }
        func epochMillis() -> Double { 1_732_262_400_000 + Double(nanos) / 1e6 }
        func monotonicNanos() -> UInt64 { nanos }
    }

    final class ManualTimer: ServiceTimer {
        var scheduled: [UInt64] = []
        func schedule(afterNanos nanos: UInt64) { scheduled.append(nanos) }
        func cancel() {}
    }

    /// Every event with the monotonic time it was published at.
    final class RecordingBus: RoomEventBus {
        let clock: ManualClock
        var published: [(event: DrawEvent, atNanos: UInt64)] = []
        init(clock: ManualClock) { self.clock = clock }
        func publish(_ event: DrawEvent, room: String) { published.append((event, clock.nanos)) }
        func subscribe(room: String, deliver: @escaping (DrawEvent) -> Void) {}
        func unsubscribe(room: String) {}
        func relay(_ event: DrawEvent, wire: [UInt8], from room: Room) -> Bool { true }

        /// When each `started`, `round` and the draw's end went out, in order.
        var stepTimes: [UInt64] {
            published.compactMap {
                if case .loading = $0.event { return nil }
                return $0.atNanos
            }
        }
    }

    static let ms: UInt64 = 1_000_000

    let clock = ManualClock()
    let timer = ManualTimer()
    let bus: RecordingBus

    init() { bus = RecordingBus(clock: clock) }

    /// A runner with 4 rounds 100 ms apart; `record` receives its writes (`nil`: no store).
    func runner(record: ((DrawWrite) -> Void)?) -> DrawRunner {
        Self.runner(bus: bus, clock: clock, timer: timer, record: record)
    }

    /// The same, on the given bus, clock and timer (`DrawRunnerShellTests` too).
    static func runner(bus: any RoomEventBus, clock: any DrawClock, timer: any ServiceTimer,
                       record: ((DrawWrite) -> Void)?,
                       gate: (mayShow: () -> Bool, awaitShow: (@escaping (Bool) -> Void) -> Void)? = nil) -> DrawRunner {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let schedule = RoundSchedule(rounds: 4, pace: .fixed(intervalMs: 100))!
        var deps = DrawRunner.Dependencies(
            bus: bus, clock: clock, planner: PlanDraw(random: SystemTestRandom(), schedule: schedule),
            metrics: ServerMetrics(), logger: logger, random: SystemTestRandom(), sources: RunningServer.sources,
            beginLoading: { _, _ in }, record: record)
        if let gate { (deps.mayShow, deps.awaitShow) = (gate.mayShow, gate.awaitShow) }
        let runner = DrawRunner(room: "r", dependencies: deps)
        runner.timer = timer
        return runner
    }

    static let players = MergeResult(players: RunningServer.players, warnings: [])

    @Test func aLateTimerPushesTheNextRoundAFullGapAfterTheActualSend() {
        let runner = runner(record: nil)
        #expect(runner.start())
        clock.nanos = 10 * Self.ms
        runner.playersLoaded(attempt: 1, .success(Self.players))       // `started` at 10 ms
        #expect(timer.scheduled.last == 100 * Self.ms)
        clock.nanos = 110 * Self.ms
        runner.timerFired()                                            // round 1, on time
        #expect(timer.scheduled.last == 100 * Self.ms)
        // The service thread was busy: round 2 (due at 210) fires at 400, when round 3's planned
        // time (310) has passed too. Round 3 must still wait a full gap, not go out at once.
        clock.nanos = 400 * Self.ms
        runner.timerFired()
        #expect(timer.scheduled.last == 100 * Self.ms)
        clock.nanos = 500 * Self.ms
        runner.timerFired()                                            // round 3
        clock.nanos = 600 * Self.ms
        runner.timerFired()                                            // round 4
        #expect(timer.scheduled.last == 100 * Self.ms, "the result holds round 4 a full gap too")
        clock.nanos = 700 * Self.ms
        runner.timerFired()                                            // finished

        let times = bus.stepTimes
        #expect(times == [10, 110, 400, 500, 600, 700].map { $0 * Self.ms })
        for (a, b) in zip(times, times.dropFirst()) {
            #expect(b - a >= 100 * Self.ms, "two steps less than a gap apart")
        }
        guard case .finished = bus.published.last?.event else {
            Issue.record("the draw did not finish")
            return
        }
    }

    /// The plan's write waited (behind a thousand other rooms' writes, say): `started` is stamped
    /// when it actually goes out, and round 1 still gets its whole lead after it.
    @Test func startedIsStampedWhenItGoesOutNotWhenTheDrawWasPlanned() throws {
        var writes: [DrawWrite] = []
        let runner = runner(record: { writes.append($0) })
        #expect(runner.start())
        clock.nanos = 10 * Self.ms
        runner.playersLoaded(attempt: 1, .success(Self.players))
        guard case .started(let record)? = writes.first else {
            Issue.record("the plan was not recorded first")
            return
        }
        #expect(bus.published.count == 1, "only `loading` before the plan is on disk")
        clock.nanos = 3010 * Self.ms                                   // the write took 3 s
        runner.recorded(.started(record), error: nil)

        guard case .started(_, let startedAt)? = bus.published.last?.event else {
            Issue.record("`started` was not published")
            return
        }
        #expect(startedAt == clock.epochMillis(), "stamped at its send, not at planning (\(record.startedAt))")
        #expect(timer.scheduled.last == 100 * Self.ms, "round 1 keeps its whole lead")
        guard case .startedAt(let id, let stamped)? = writes.last else {
            Issue.record("the actual start time was not recorded")
            return
        }
        #expect(id == record.drawId && stamped == startedAt)
    }
}
