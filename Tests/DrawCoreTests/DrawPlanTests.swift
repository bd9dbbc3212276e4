@testable import DrawCore
import Testing

struct DrawPlanTests {
    /// The worked example of docs/FAIRNESS.md. These numbers were computed by tools/verify_draw.py,
    /// an independent Python implementation of the document, not by this code.
    @Test func knownAnswerVectorMatchesFairnessDoc() {
        let plan = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                 seed: Fixtures.exampleSeed, schedule: .original)
        #expect(plan.rounds.map(\.pickIndex) == [3, 0, 2, 1, 2, 3, 0, 0, 2, 2])
        #expect(plan.commitment == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
        #expect(plan.entrantsHash == "f150c8a68934acd5919016c321349010d893a4069c790a19faf8ff4548e506b2")
        #expect(plan.outcome == .winner(Fixtures.samplePlayers[2]))
        #expect(plan.outcome.drawn.name == "Mack")
    }

    @Test func canonicalEntrantsEncodingIsTheDocumentedJSON() {
        let json = String(decoding: EntrantsEncoding.canonicalJSON(Array(Fixtures.samplePlayers.prefix(1))), as: UTF8.self)
        #expect(json == #"[{"userId":10,"name":"Jack Alexy","username":"JAlex","regDate":"2020-10-19","void":false}]"#)
    }

    @Test func canonicalEscapingMatchesJSONStringify() {
        let p = Player(userId: 1, name: "a\"b\\c\n\u{01}/é😀\t", username: "u", regDate: Fixtures.date("2020-01-01"), isVoid: false)
        let json = String(decoding: EntrantsEncoding.canonicalJSON([p]), as: UTF8.self)
        #expect(json == #"[{"userId":1,"name":"a\"b\\c\n\u0001/é😀\t","username":"u","regDate":"2020-01-01","void":false}]"#)
    }

    @Test func sameInputsGiveTheSamePlan() {
        let a = DrawPlan.make(drawId: "d1", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed, schedule: .original)
        let b = DrawPlan.make(drawId: "d1", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed, schedule: .original)
        #expect(a == b)
        let c = DrawPlan.make(drawId: "d2", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed, schedule: .original)
        #expect(a.rounds.map(\.pickIndex) != c.rounds.map(\.pickIndex), "the draw id must feed the picks")
    }

    @Test func voidDrawnEntryMeansNoWinner() {
        // Seed of 32 bytes 0x09 draws the void entry (index 3) last; computed by tools/verify_draw.py.
        let seed = Seed(bytes: Array(repeating: 9, count: 32))!
        let plan = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers, seed: seed, schedule: .original)
        #expect(plan.rounds.map(\.pickIndex) == [0, 3, 1, 0, 1, 3, 3, 2, 0, 3])
        #expect(plan.outcome == .noWinner(drawn: Fixtures.samplePlayers[3]))
    }

    @Test func allVoidDrawIsValidAndHasNoWinner() throws {
        let merge = try PlayerMerger.merge(users: Fixtures.users,
                                           entries: [LotteryEntry(userId: 10, isVoid: true), LotteryEntry(userId: 22, isVoid: true)])
        let plan = PlanDraw(random: FixedRandom(fill: 5)).execute(merge)
        guard case .noWinner = plan.outcome else { Issue.record("all-void draw must have no winner"); return }
    }

    @Test func singlePlayerIsAlwaysPicked() {
        let one = Array(Fixtures.samplePlayers.prefix(1))
        let plan = DrawPlan.make(drawId: "x", entrants: one, seed: Fixtures.exampleSeed, schedule: .original)
        #expect(plan.rounds.allSatisfy { $0.pickIndex == 0 })
    }

    @Test func planDrawUsesInjectedRandomnessForSeedAndId() {
        let merge = MergeResult(players: Fixtures.samplePlayers, warnings: [.duplicateUser(userId: 4)])
        let plan = PlanDraw(random: FixedRandom(fill: 0xab)).execute(merge)
        #expect(plan.seed.hex == String(repeating: "ab", count: 32))
        #expect(plan.drawId == String(repeating: "ab", count: 16))
        #expect(DrawIdentifier.isValid(plan.drawId))
        #expect(plan.warnings == [.duplicateUser(userId: 4)])
        #expect(plan.rounds.count == 10)
        #expect(plan.rounds.map(\.round) == Array(1...10))
    }

    @Test func rejectionSamplingMatchesIndependentImplementation() {
        // n = 2^31 + 1 makes limit = n, so about half of all words are rejected: rounds 4, 5, 6,
        // 7 and 10 below have a rejected first word. Expected values from tools/verify_draw.py.
        let n = (1 << 31) + 1
        let picks = (1...10).map { PickDerivation.index(seed: Fixtures.exampleSeed, drawId: "t", round: $0, count: n) }
        #expect(picks == [318524026, 1450411592, 2135360455, 1220543317, 545289890,
                          1427977993, 735556130, 847718877, 368887755, 511296951])
    }
}
