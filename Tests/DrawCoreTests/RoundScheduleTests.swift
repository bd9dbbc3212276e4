import DrawCore
import Testing

struct RoundScheduleTests {
    @Test func originalIsTenRoundsEvery400ms() {
        let s = RoundSchedule.original
        #expect(s.rounds == 10)
        #expect(s.roundOffsetsMs == [0, 400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 3600])
        #expect(s.finishOffsetMs == 4000)
    }

    @Test func configurableInterval() {
        let s = RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 25))!
        #expect(s.roundOffsetsMs == [0, 25, 50])
        #expect(s.finishOffsetMs == 75)
    }

    @Test func deceleratingGapsGrowLinearly() {
        let s = RoundSchedule(rounds: 5, pace: .decelerating(firstMs: 100, lastMs: 500))!
        #expect((1...5).map { s.gapMs(after: $0) } == [100, 200, 300, 400, 500])
        #expect(s.roundOffsetsMs == [0, 100, 300, 600, 1000])
        #expect(s.finishOffsetMs == 1500)
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
