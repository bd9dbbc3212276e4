@testable import DrawCore
import Crypto
import Testing

/// The beacon draw's key and picks (`docs/FAIRNESS.md` §9's worked example, computed with
/// tools/verify_draw.py).
struct BeaconDerivationTests {
    static let signature = Hex.decode("7a448bdb730b81fcce54204e01d9d70e6118e3c8818c60157abeb687026ab2326c9bd9e332755ff33bb1934be1993005")!
    static let randomness = Hex.decode("2db752109f95eb6961929b22e75629eeabb34c63fc98c0326bf469041d16a08b")!
    static let round = BeaconRound(round: 1000, randomness: randomness, signature: signature)!
    static let beacon = DrawBeacon(chainHash: String(repeating: "0", count: 64), round: 1000, roundAtMs: 1_000_000)

    @Test func randomnessIsTheSignaturesHash() {
        #expect(Self.round.isConsistent)
        var tampered = Self.randomness
        tampered[0] ^= 1
        #expect(!BeaconRound(round: 1000, randomness: tampered, signature: Self.signature)!.isConsistent)
        #expect(BeaconRound(round: 0, randomness: Self.randomness, signature: Self.signature) == nil)
        #expect(BeaconRound(round: 1, randomness: [1, 2], signature: Self.signature) == nil)
        #expect(BeaconRound(round: 1, randomness: Self.randomness, signature: []) == nil)
        #expect(BeaconRound(round: 1, randomness: Self.randomness, signature: Array(repeating: 0, count: 193)) == nil)
    }

    @Test func workedExample() throws {
        let key = BeaconKey.derive(seed: Fixtures.exampleSeed, randomness: Self.randomness)
        #expect(key.hex == "301332d399c08195dae2994c49adf6ed4a7b161374cfcd93b193f9b3564c2180")
        let pending = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                    seed: Fixtures.exampleSeed, schedule: .original, winners: 2, beacon: Self.beacon)
        #expect(pending.isAwaitingBeacon && pending.rounds.isEmpty && pending.winnerPicks.isEmpty)
        #expect(pending.winners == 2)
        #expect(pending.commitment == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
                "the commitment is the seed's, beacon or not")
        let plan = try #require(pending.resolved(with: Self.round))
        #expect(!plan.isAwaitingBeacon)
        #expect(plan.rounds.map(\.pickIndex) == [2, 0, 3, 2, 0, 2, 0, 1, 2, 0])
        #expect(plan.winnerPicks.map(\.pickIndex) == [0, 1])
        #expect(plan.outcome.drawn.name == "Jack Alexy")
        #expect(plan.beacon?.value == Self.round)
        // The same picks as the seed-alone scheme with the key in place of the seed.
        let keyed = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers, seed: key,
                                  schedule: .original, winners: 2)
        #expect(keyed.rounds.map(\.pickIndex) == plan.rounds.map(\.pickIndex))
    }

    @Test func anotherRoundOrAnInconsistentOneIsNeverUsed() {
        let pending = DrawPlan.make(drawId: "d", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed,
                                    schedule: .original, beacon: Self.beacon)
        let other = BeaconRound(round: 1001, randomness: Self.randomness, signature: Self.signature)!
        #expect(pending.resolved(with: other) == nil)
        var bad = Self.randomness
        bad[5] ^= 0x80
        #expect(pending.resolved(with: BeaconRound(round: 1000, randomness: bad, signature: Self.signature)!) == nil)
        let plain = DrawPlan.make(drawId: "d", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed, schedule: .original)
        #expect(plain.resolved(with: Self.round) == nil, "a draw without a beacon has none to resolve")
    }

    @Test func aDrawWithoutABeaconIsTodaysSchemeBitForBit() {
        let plan = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                 seed: Fixtures.exampleSeed, schedule: .original)
        #expect(plan.beacon == nil && !plan.isAwaitingBeacon)
        #expect(plan.rounds.map(\.pickIndex) == [3, 0, 2, 1, 2, 3, 0, 0, 2, 2])
    }
}
