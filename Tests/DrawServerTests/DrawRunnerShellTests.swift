import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// What the shell around `DrawSession` derives from its effects: the timer it arms and
    /// cancels, and the metrics (the decisions themselves are tested in DrawCoreTests/Session).
    /// No sockets; nested in `RealSocketTests` only so that its metrics do not land in the middle
    /// of a server test that counts them.
    @Suite struct DrawRunnerShellTests {
        typealias Pacing = DrawRunnerPacingTests

        final class CountingTimer: ServiceTimer {
            var scheduled: [UInt64] = []
            var cancels = 0
            func schedule(afterNanos nanos: UInt64) { scheduled.append(nanos) }
            func cancel() { cancels += 1 }
        }

        static let ms = Pacing.ms
        let clock = Pacing.ManualClock()
        let timer = CountingTimer()
        let bus: Pacing.RecordingBus

        init() { bus = Pacing.RecordingBus(clock: clock) }

        /// 4 rounds 100 ms apart; every write is kept in `box`.
        func runner(_ box: WriteBox) -> DrawRunner {
            Pacing.runner(bus: bus, clock: clock, timer: timer, record: { box.writes.append($0) })
        }

        final class WriteBox { var writes: [DrawWrite] = [] }

        /// A draw started at 10 ms whose plan was durable at once.
        func started(_ box: WriteBox) throws -> DrawRunner {
            let runner = runner(box)
            #expect(runner.start())
            clock.nanos = 10 * Self.ms
            runner.playersLoaded(attempt: 1, .success(Pacing.players))
            let plan = try #require(box.writes.first)
            runner.recorded(plan, error: nil)
            return runner
        }

        @Test func aRoundsLatenessAndTheResultsWriteDelayAreMeasured() throws {
            let metrics = RecordingMetrics.shared
            let latenessBefore = metrics.recorded("livedraw_round_lateness_seconds").count
            let resultBefore = metrics.recorded("livedraw_result_write_seconds").count
            let box = WriteBox()
            let runner = try started(box)
            clock.nanos = 150 * Self.ms                   // round 1, due at 110: 40 ms late
            runner.timerFired()
            #expect(Array(metrics.recorded("livedraw_round_lateness_seconds").dropFirst(latenessBefore)) == [40e6])
            for ms: UInt64 in [250, 350, 450, 550] {       // rounds 2-4 on time, then the result
                clock.nanos = ms * Self.ms
                runner.timerFired()
            }
            guard case .finish(_, .finished, _, _)? = box.writes.last else {
                Issue.record("the result was not written")
                return
            }
            clock.nanos = 557 * Self.ms                   // its write took 7 ms
            runner.recorded(try #require(box.writes.last), error: nil)
            #expect(Array(metrics.recorded("livedraw_result_write_seconds").dropFirst(resultBefore)) == [7e6])
            guard case .finished? = bus.published.last?.event else {
                Issue.record("no `finished`")
                return
            }
            #expect(!runner.isBusy)
        }

        @Test func anAbortCancelsTheTimerAndAFailedWriteIsCounted() throws {
            let metrics = RecordingMetrics.shared
            let failures = "livedraw_storage_failures_total{operation=round}"
            let aborts = "livedraw_draws_aborted_total{reason=storage_failure}"
            let (failuresBefore, abortsBefore) = (metrics.counter(failures), metrics.counter(aborts))
            let box = WriteBox()
            let runner = try started(box)
            clock.nanos = 110 * Self.ms
            runner.timerFired()
            let round = try #require(box.writes.last)
            runner.recorded(round, error: .writeFailed(path: "t", operation: "round", reason: "injected"))
            #expect(timer.cancels == 1)
            #expect(metrics.counter(failures) == failuresBefore + 1)
            #expect(metrics.counter(aborts) == abortsBefore + 1)
            guard case .aborted(_, 1, "storage_failure")? = bus.published.last?.event else {
                Issue.record("the draw was not aborted")
                return
            }
            #expect(!runner.isBusy && runner.room == "r")
        }
    }
}
