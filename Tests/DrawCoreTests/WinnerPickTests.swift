@testable import DrawCore
import Testing

/// Several winners (docs/FAIRNESS.md, section 5): slot 1 is the last round's pick, the other
/// slots continue the same HMAC stream among the entrants not drawn yet; a void slot stays empty.
struct WinnerPickTests {
    static let seed = Fixtures.exampleSeed
    static let id = Fixtures.exampleDrawId

    @Test(arguments: [1, 2, 3, 7, 10])
    func slotsAreDistinctStartAtTheLastRoundAndOnlyGrowWithK(n: Int) {
        for rounds in [1, 4] {
            let all = PickDerivation.winnerIndices(seed: Self.seed, drawId: Self.id, rounds: rounds, count: n, winners: n)
            #expect(Set(all) == Set(0..<n))
            #expect(all[0] == PickDerivation.index(seed: Self.seed, drawId: Self.id, round: rounds, count: n))
            for k in 1...n {
                #expect(PickDerivation.winnerIndices(seed: Self.seed, drawId: Self.id, rounds: rounds, count: n,
                                                     winners: k) == Array(all.prefix(k)))
            }
        }
    }

    @Test func aPositionSkipsTheTakenEntrants() {
        // Remaining of 0…6 after taking 1, 2 and 5: [0, 3, 4, 6].
        let taken = [1, 2, 5]
        #expect((0..<4).map { PickDerivation.entrantIndex(atRemainingPosition: $0, taken: taken) } == [0, 3, 4, 6])
        #expect(PickDerivation.entrantIndex(atRemainingPosition: 2, taken: []) == 2)
    }

    @Test func oneWinnerPlanIsTheOldPlan() {
        let plan = DrawPlan.make(drawId: Self.id, entrants: Fixtures.samplePlayers, seed: Self.seed, schedule: .original)
        #expect(plan.winners == 1)
        #expect(plan.winnerPicks == [WinnerPick(slot: 1, pickIndex: 2, player: Fixtures.samplePlayers[2])])
        #expect(plan.outcome == plan.winnerPicks[0].outcome)
    }

    @Test func aVoidSlotHasNoWinnerAndIsNotRedrawn() {
        // The worked example with every entrant drawn: Mohsen (void) lands in slot 4.
        let plan = DrawPlan.make(drawId: Self.id, entrants: Fixtures.samplePlayers, seed: Self.seed,
                                 schedule: .original, winners: 4)
        #expect(plan.winnerPicks.map(\.pickIndex) == [2, 0, 1, 3])
        #expect(plan.winnerPicks.map(\.isWinner) == [true, true, true, false])
        #expect(plan.winnerPicks[3].outcome == .noWinner(drawn: Fixtures.samplePlayers[3]))
        #expect(plan.winningPlayers == [2, 0, 1].map { Fixtures.samplePlayers[$0] })
    }

    @Test func winnerCountMustFitTheEntrants() {
        #expect(DrawPlan.isValidWinnerCount(1, entrants: 1))
        #expect(DrawPlan.isValidWinnerCount(4, entrants: 4))
        #expect(!DrawPlan.isValidWinnerCount(5, entrants: 4))
        #expect(!DrawPlan.isValidWinnerCount(0, entrants: 4))
    }

    static func record(_ plan: DrawPlan, status: DrawStatus, winners: Int? = nil,
                       slots: [WinnerPick]? = nil) -> DrawRecord {
        DrawRecordTests.record(status, shown: plan.rounds.count, plan: plan, winners: winners, slots: slots)
    }

    @Test func recordsVerifyTheirSlots() throws {
        let plan = DrawPlan.make(drawId: Self.id, entrants: Fixtures.samplePlayers, seed: Self.seed,
                                 schedule: .original, winners: 3)
        #expect(Self.record(plan, status: .finished).verify()?.isValid == true)
        #expect(Self.record(plan, status: .finished).winnerPicks == plan.winnerPicks)

        let swapped = [plan.winnerPicks[0], plan.winnerPicks[2], plan.winnerPicks[1]]
        #expect(try #require(Self.record(plan, status: .finished, slots: swapped).verify()).mismatchedWinnerSlots == [2, 3])
        let missing = Array(plan.winnerPicks.prefix(2))
        #expect(try #require(Self.record(plan, status: .finished, slots: missing).verify()).mismatchedWinnerSlots == [3])

        let impossible = try #require(Self.record(plan, status: .finished, winners: 5).verify())
        #expect(!impossible.winnerCountValid && !impossible.isValid)
        #expect(impossible.commitmentMatches && impossible.mismatchedRounds.isEmpty)  // the rest is still checked
    }

    @Test func stoppedRecordsKeepTheCountButDecideNoSlot() throws {
        let plan = DrawPlan.make(drawId: Self.id, entrants: Fixtures.samplePlayers, seed: Self.seed,
                                 schedule: .original, winners: 3)
        let running = Self.record(plan, status: .running)
        #expect(running.winners == 3 && running.winnerPicks.isEmpty)
        let aborted = try #require(running.aborted(reason: "x", finishedAt: 4, seed: plan.seed))
        #expect(aborted.winners == 3 && aborted.winnerPicks.isEmpty)
        #expect(aborted.verify()?.isValid == true)
    }
}
