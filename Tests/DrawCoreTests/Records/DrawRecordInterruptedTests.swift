import DrawCore
import Testing

/// The record a takeover makes of another node's draw (`DrawRecord.interrupted`): what the dead
/// node's own store says after its restart, from the shared `running` record and the seed.
struct DrawRecordInterruptedTests {
    typealias R = DrawRecordTests

    @Test func theSharedRunningRecordEndsAsTheDeadNodesOwnRecordWould() throws {
        // The shared record was kept at the start: no round shown yet.
        let shared = R.record(.running, shown: 0)
        let ended = try #require(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 4))
        #expect(ended.status == .interrupted && ended.seed == R.plan.seed && ended.abortReason == nil)
        #expect(ended.roundsShown == 4 && ended.rounds.count == 10)
        #expect(ended.outcome == nil && ended.verify()?.isValid == true)
        // The rounds shown are stamped when they were due: the start plus their offsets.
        #expect(ended.rounds.prefix(4).map(\.sentAt) == R.plan.rounds.prefix(4).map { 2 + Double($0.offsetMs) })
        // The same record as the dead node's store gives once it marked it interrupted, but for those times.
        let own = R.record(.interrupted, shown: 4)
        #expect(ended.rounds.map(\.pickIndex) == own.rounds.map(\.pickIndex))
        #expect(DrawSummary(record: ended) == DrawSummary(record: own))
    }

    @Test func roundsTheRecordShowsKeepTheirOwnTimes() throws {
        let shared = R.record(.running, shown: 2)
        let ended = try #require(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 3))
        #expect(ended.rounds.prefix(3).map(\.sentAt) == [1, 2, 2 + Double(R.plan.rounds[2].offsetMs)])
    }

    @Test func allOrNoRoundsAreAccepted() throws {
        let shared = R.record(.running, shown: 0)
        #expect(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 0)?.roundsShown == 0)
        #expect(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 10)?.roundsShown == 10)
        #expect(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 11) == nil, "past the plan")
        #expect(shared.interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: -1) == nil)
    }

    @Test func anotherSeedOrAnEndedRecordIsRefused() {
        let other = Seed(bytes: Array(repeating: 7, count: 32))!
        #expect(R.record(.running, shown: 0).interrupted(finishedAt: 3, seed: other, roundsShown: 1) == nil,
                "a seed that does not match the commitment is never revealed")
        #expect(R.record(.finished, shown: 10).interrupted(finishedAt: 3, seed: R.plan.seed, roundsShown: 1) == nil)
    }

    /// A beacon draw (FAIRNESS.md §9) keeps its beacon, and its picks are never the seed's alone.
    static func beaconPlan(resolved: Bool) -> DrawPlan {
        let plan = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                 seed: Fixtures.exampleSeed, schedule: .original, beacon: BeaconDerivationTests.beacon)
        return resolved ? plan.resolved(with: BeaconDerivationTests.round)! : plan
    }

    @Test func aBeaconDrawStillWaitingForItsRoundRevealsTheSeedAndNoPick() throws {
        let plan = Self.beaconPlan(resolved: false)
        let shared = R.record(.running, shown: 0, plan: plan)
        let ended = try #require(shared.interrupted(finishedAt: 3, seed: plan.seed, roundsShown: 0))
        #expect(ended.status == .interrupted && ended.seed == plan.seed && ended.beacon == plan.beacon)
        #expect(ended.rounds.isEmpty && ended.roundsShown == 0 && ended.outcome == nil && ended.winnerPicks.isEmpty)
        #expect(shared.interrupted(finishedAt: 3, seed: plan.seed, roundsShown: 1) == nil,
                "no round can have been shown before R was fetched")
    }

    @Test func aBeaconDrawWithItsRoundRevealsThePicksKeyedByIt() throws {
        let plan = Self.beaconPlan(resolved: true)
        let ended = try #require(R.record(.running, shown: 0, plan: plan)
            .interrupted(finishedAt: 3, seed: plan.seed, roundsShown: 4))
        #expect(ended.beacon == plan.beacon && ended.roundsShown == 4)
        #expect(ended.rounds.map(\.pickIndex) == plan.rounds.map(\.pickIndex))
        #expect(ended.rounds.map(\.pickIndex) != R.plan.rounds.map(\.pickIndex), "not the seed's picks alone")
        #expect(ended.verify()?.isValid == true)
    }
}
