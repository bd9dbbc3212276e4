@testable import DrawCore
import Crypto
import Testing

/// The beacon draw's key and picks (`docs/FAIRNESS.md` §9's worked example, computed with
/// tools/verify_draw.py): the worked example's draw keyed by drand quicknet's real round 3.
struct BeaconDerivationTests {
    static let signature = Hex.decode("b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64")!
    static let randomness = Hex.decode("7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21")!
    static let round = BeaconRound(round: 3, randomness: randomness, signature: signature)!
    static let beacon = DrawBeacon(chainHash: BeaconChainTests.quicknet.hash, round: 3, roundAtMs: 1_692_803_373_000)

    @Test func randomnessIsTheSignaturesHash() {
        #expect(Self.round.isConsistent)
        var tampered = Self.randomness
        tampered[0] ^= 1
        #expect(!BeaconRound(round: 3, randomness: tampered, signature: Self.signature)!.isConsistent)
        #expect(BeaconRound(round: 0, randomness: Self.randomness, signature: Self.signature) == nil)
        #expect(BeaconRound(round: 1, randomness: [1, 2], signature: Self.signature) == nil)
        #expect(BeaconRound(round: 1, randomness: Self.randomness, signature: []) == nil)
        #expect(BeaconRound(round: 1, randomness: Self.randomness, signature: Array(repeating: 0, count: 193)) == nil)
    }

    @Test func workedExample() throws {
        let key = BeaconKey.derive(seed: Fixtures.exampleSeed, randomness: Self.randomness)
        #expect(key.hex == "6eeb88755b9a3389980d662b4783b17c8f3bfe85103710d526c909d53f6010bd")
        let pending = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                    seed: Fixtures.exampleSeed, schedule: .original, winners: 2, beacon: Self.beacon)
        #expect(pending.isAwaitingBeacon && pending.rounds.isEmpty && pending.winnerPicks.isEmpty)
        #expect(pending.winners == 2)
        #expect(pending.commitment == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
                "the commitment is the seed's, beacon or not")
        let plan = try #require(pending.resolved(with: Self.round))
        #expect(!plan.isAwaitingBeacon)
        #expect(plan.rounds.map(\.pickIndex) == [1, 1, 0, 2, 0, 1, 2, 0, 2, 3])
        #expect(plan.winnerPicks.map(\.pickIndex) == [3, 0])
        #expect(plan.outcome == .noWinner(drawn: Fixtures.samplePlayers[3]), "Mohsen, void: no winner this time")
        #expect(plan.beacon?.value == Self.round)
        // The same picks as the seed-alone scheme with the key in place of the seed.
        let keyed = DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers, seed: key,
                                  schedule: .original, winners: 2)
        #expect(keyed.rounds.map(\.pickIndex) == plan.rounds.map(\.pickIndex))
    }

    @Test func anotherRoundOrAnInconsistentOneIsNeverUsed() {
        let pending = DrawPlan.make(drawId: "d", entrants: Fixtures.samplePlayers, seed: Fixtures.exampleSeed,
                                    schedule: .original, beacon: Self.beacon)
        let other = BeaconRound(round: 4, randomness: Self.randomness, signature: Self.signature)!
        #expect(pending.resolved(with: other) == nil)
        var bad = Self.randomness
        bad[5] ^= 0x80
        #expect(pending.resolved(with: BeaconRound(round: 3, randomness: bad, signature: Self.signature)!) == nil)
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

extension BeaconDerivationTests {
    @Test func aWrittenBeaconReadsBackOnlyWhole() {
        let hash = BeaconChainTests.quicknet.hash
        let r = Self.round.randomnessHex, s = Self.round.signatureHex
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: 1, randomnessHex: r, signatureHex: s)?.value == Self.round)
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: 1, randomnessHex: nil, signatureHex: nil)?.value == nil)
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: 1, randomnessHex: nil, signatureHex: nil) != nil)
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: 1, randomnessHex: r, signatureHex: nil) == nil)
        #expect(DrawBeacon(chainHash: hash, round: 0, roundAtMs: 1, randomnessHex: nil, signatureHex: nil) == nil)
        #expect(DrawBeacon(chainHash: "x", round: 3, roundAtMs: 1, randomnessHex: nil, signatureHex: nil) == nil)
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: .nan, randomnessHex: nil, signatureHex: nil) == nil)
        #expect(DrawBeacon(chainHash: hash, round: 3, roundAtMs: 1, randomnessHex: "zz", signatureHex: s) == nil)
    }
}
