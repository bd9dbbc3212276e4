import DrawCore
@testable import DrawServer
import Testing

/// A draw whose last step is not durable yet (cluster mode: Redis has not acknowledged its fenced
/// entry, issue 36) holds its next one: nothing is published until the step log answers; then
/// the held step goes out at that time and the draw goes on a full gap later, or, refused, the
/// draw is aborted as `interrupted` and nothing of it is shown.
@Suite struct DrawRunnerHoldTests {
    static let ms = DrawRunnerPacingTests.ms
    let clock = DrawRunnerPacingTests.ManualClock()
    let timer = DrawRunnerPacingTests.ManualTimer()
    let bus: DrawRunnerPacingTests.RecordingBus
    /// What the gate says now, and the callers waiting for its answer.
    final class Gate {
        var open = true
        var waiting: [(Bool) -> Void] = []
        var asked = 0
        func answer(_ go: Bool) {
            let calls = waiting
            waiting = []
            for call in calls { call(go) }
        }
    }
    let gate = Gate()

    init() { bus = DrawRunnerPacingTests.RecordingBus(clock: clock) }

    private func runner() -> DrawRunner {
        let gate = self.gate
        return DrawRunnerPacingTests.runner(bus: bus, clock: clock, timer: timer, record: nil, gate: (
            mayShow: { gate.open },
            awaitShow: { call in
                gate.asked += 1
                gate.waiting.append(call)
            }))
    }

    private func startedRunner() -> DrawRunner {
        let runner = runner()
        #expect(runner.start())
        clock.nanos = 10 * Self.ms
        runner.playersLoaded(attempt: 1, .success(DrawRunnerPacingTests.players))
        clock.nanos = 110 * Self.ms
        runner.timerFired()                                            // round 1
        return runner
    }

    @Test func aHeldRoundGoesOutWhenTheGateOpensAndTheNextAFullGapLater() {
        let runner = startedRunner()
        gate.open = false
        clock.nanos = 210 * Self.ms
        runner.timerFired()                                            // round 2: held
        runner.timerFired()                                            // a second wake, held too
        #expect(bus.stepTimes == [10, 110].map { $0 * Self.ms }, "nothing shown while held")
        #expect(gate.asked == 1, "one question for everything held")
        clock.nanos = 1_500 * Self.ms
        gate.open = true
        gate.answer(true)
        #expect(bus.stepTimes == [10, 110, 1_500].map { $0 * Self.ms })
        #expect(timer.scheduled.last == 100 * Self.ms)
        guard case .round(_, 1, _)? = bus.published.last?.event else {
            Issue.record("round 2 did not go out: \(String(describing: bus.published.last?.event))")
            return
        }
    }

    @Test func aRefusedDrawIsAbortedAsInterruptedAndShowsNoMoreRounds() {
        let runner = startedRunner()
        gate.open = false
        clock.nanos = 210 * Self.ms
        runner.timerFired()
        gate.answer(false)
        guard case .aborted(_, let shown, let reason)? = bus.published.last?.event else {
            Issue.record("not aborted: \(String(describing: bus.published.last?.event))")
            return
        }
        #expect(reason == "interrupted" && shown == 1, "one round shown, none after")
        #expect(!runner.isBusy)
    }

    @Test func anAbortIsNeverHeld() {
        let runner = startedRunner()
        gate.open = false
        runner.abort(reason: "host")
        guard case .aborted(_, _, "host")? = bus.published.last?.event else {
            Issue.record("the abort waited")
            return
        }
        #expect(gate.asked == 0)
    }
}
