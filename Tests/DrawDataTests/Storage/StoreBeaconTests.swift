@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// A beacon draw's record (schema 9, docs/FAIRNESS.md §9): its round from the start, the
    /// round's values and the picks once fetched, and a record that verifies; one whose round never
    /// came keeps no pick and says so.
    struct StoreBeaconTests {
        static let signature = Array(repeating: UInt8(0x5a), count: 48)
        static let value = BeaconRound(round: 77, randomness: Hex.decode(SHA256Hex.of(signature))!, signature: signature)!
        static let beacon = DrawBeacon(chainHash: String(repeating: "f", count: 64), round: 77,
                                       roundAtMs: 1_732_262_403_000)

        static func pendingPlan() -> DrawPlan {
            DrawPlan.make(drawId: StoreFixtures.drawId(900), entrants: StoreFixtures.unicodePlayers,
                          seed: Seed(bytes: Array(repeating: 3, count: 32))!, schedule: .original, beacon: beacon)
        }

        @Test func theRoundAndItsPicksAreRecordedAndVerify() throws {
            try StoreFixtures.withStore { store, _ in
                let pending = Self.pendingPlan()
                let start = StoreFixtures.started(pending)
                try store.insertStarted(start)
                let running = try #require(try store.record(id: pending.drawId))
                #expect(running.beacon == Self.beacon && running.rounds.isEmpty, "the round is public from the start")
                let plan = try #require(pending.resolved(with: Self.value))
                try store.recordBeacon(plan)
                for r in plan.rounds {
                    try store.recordRound(drawId: plan.drawId, round: r.round, sentAt: start.startedAt + 4_000 + Double(r.round))
                }
                try store.finish(drawId: plan.drawId, ending: .finished, finishedAt: start.startedAt + 9_000)
                let record = try #require(try store.record(id: plan.drawId))
                #expect(record.beacon?.value == Self.value)
                #expect(record.rounds.map(\.pickIndex) == plan.rounds.map(\.pickIndex))
                #expect(record.outcome == plan.outcome)
                #expect(record.verify()?.isValid == true)
            }
        }

        @Test func aRoundThatNeverCameLeavesNoPickAndStillVerifies() throws {
            try StoreFixtures.withStore { store, _ in
                let pending = Self.pendingPlan()
                let start = StoreFixtures.started(pending)
                try store.insertStarted(start)
                try store.finish(drawId: pending.drawId, ending: .aborted(reason: DrawSession.beaconUnavailableReason),
                                 finishedAt: start.startedAt + 8_000)
                let record = try #require(try store.record(id: pending.drawId))
                #expect(record.beacon == Self.beacon && record.beacon?.value == nil)
                #expect(record.rounds.isEmpty && record.outcome == nil && record.seed == pending.seed)
                #expect(record.verify()?.isValid == true)
            }
        }

        @Test func drandAnswersAreParsedStrictly() throws {
            let info = Data(#"{"public_key":"83cf","period":3,"genesis_time":1692803367,"hash":"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971","groupHash":"x","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"quicknet"}}"#.utf8)
            let chain = try DrandJSON.chain(info)
            #expect(chain.periodSeconds == 3 && chain.genesisSeconds == 1_692_803_367)
            let round = Data(#"{"round":77,"randomness":"\#(Self.value.randomnessHex)","signature":"\#(Self.value.signatureHex)"}"#.utf8)
            #expect(try DrandJSON.round(round) == Self.value)
            for bad in ["<html>", #"{"round":-1,"randomness":"00","signature":"00"}"#,
                        #"{"round":1,"randomness":"zz","signature":"00"}"#, #"{"round":1,"randomness":"00","signature":"00"}"#,
                        #"{"round":18446744073709551616,"randomness":"00","signature":"00"}"#] {
                #expect(throws: BeaconFetchError.self) { try DrandJSON.round(Data(bad.utf8)) }
            }
            let zeroPeriod = Data(#"{"public_key":"","period":0,"genesis_time":1,"hash":"\#(String(repeating: "a", count: 64))"}"#.utf8)
            #expect(throws: BeaconFetchError.self) { try DrandJSON.chain(zeroPeriod) }
        }
    }
}
