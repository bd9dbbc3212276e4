import DrawCore
import Testing

struct RoundScheduleTests {
    @Test func originalIsTenRoundsEvery400ms() {
        let s = RoundSchedule.original
        #expect(s.rounds == 10)
        #expect(s.roundOffsetsMs == [400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 3600, 4000])
        #expect(s.finishOffsetMs == 4400)
    }

    @Test func configurableInterval() {
        let s = RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 25))!
        #expect(s.roundOffsetsMs == [25, 50, 75])
        #expect(s.finishOffsetMs == 100)
    }

    @Test func deceleratingGapsGrowLinearly() {
        let s = RoundSchedule(rounds: 5, pace: .decelerating(firstMs: 100, lastMs: 500))!
        #expect((1...5).map { s.gapMs(after: $0) } == [100, 200, 300, 400, 500])
        #expect(s.roundOffsetsMs == [100, 200, 400, 700, 1100])
        #expect(s.finishOffsetMs == 1600)
    }

    /// Round 1 must not be due together with `started`: with a crowd watching, it would queue
    /// behind that fan-out (issue 7). Every step is one gap after the one before.
    @Test func roundOneFollowsStartedByTheFirstGap() {
        let fixed = RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 100))!
        #expect(fixed.leadMs == 100)
        #expect(fixed.roundOffsetsMs.first == 100)
        let slowing = RoundSchedule(rounds: 3, pace: .decelerating(firstMs: 50, lastMs: 250))!
        #expect(slowing.leadMs == 50)
        #expect(slowing.roundOffsetsMs == [50, 100, 250])
        // Interval 0 (tests, instant draws) keeps everything at once.
        #expect(RoundSchedule(rounds: 2, pace: .fixed(intervalMs: 0))!.roundOffsetsMs == [0, 0])
    }

    /// A countdown holds round 1 back to its end (or one gap, if that is longer); the rest of
    /// the draw keeps its gaps.
    @Test func aCountdownShiftsRoundOne() {
        let s = RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 400), countdownMs: 3000)!
        #expect(s.leadMs == 3000)
        #expect(s.roundOffsetsMs == [3000, 3400, 3800])
        #expect(s.finishOffsetMs == 4200)
        #expect(RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 400), countdownMs: 100)!.roundOffsetsMs == [400, 800, 1200])
        #expect(RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 400), countdownMs: 60_001) == nil)
        #expect(RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 400), countdownMs: -1) == nil)
    }

    @Test func outOfRangeSchedulesAreRejected() {
        #expect(RoundSchedule(rounds: 0, pace: .fixed(intervalMs: 400)) == nil)
        #expect(RoundSchedule(rounds: 101, pace: .fixed(intervalMs: 400)) == nil)
        #expect(RoundSchedule(rounds: 10, pace: .fixed(intervalMs: -1)) == nil)
        #expect(RoundSchedule(rounds: 10, pace: .decelerating(firstMs: 10, lastMs: 60_001)) == nil)
    }

    @Test func planRoundsCarryTheScheduleOffsets() {
        let s = RoundSchedule(rounds: 4, pace: .decelerating(firstMs: 10, lastMs: 40))!
        let plan = DrawPlan.make(drawId: "x", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed, schedule: s)
        #expect(plan.rounds.map(\.offsetMs) == s.roundOffsetsMs)
        #expect(plan.finishOffsetMs == s.finishOffsetMs)
    }
}
