import DrawCore
import DrawPresentation
import Foundation
import Testing

/// `winners` and `winnerPicks` on the wire: only for a draw with more than one winner, so every
/// one-winner message and record keeps its bytes; in the shape the fairness vectors' records use.
struct WinnerSlotsWireTests {
    static let threeWinners = DrawPlan.make(drawId: Fixtures.voidPlan.drawId, entrants: Fixtures.players,
                                            seed: Fixtures.voidPlan.seed, schedule: .original, winners: 3)

    /// The worked example's `finished` (protocol v2: the entrants' count, hash and picked entries,
    /// not the list), byte for byte: one winner has no slot fields.
    static let oneWinnerFinished = #"{"type":"finished","drawId":"00112233445566778899aabbccddeeff","entrantCount":4,"outcome":"winner","drawn":{"userId":4,"name":"Mack","username":"mackMack13","regDate":"2018-10-02","void":false},"winner":{"userId":4,"name":"Mack","username":"mackMack13","regDate":"2018-10-02","void":false},"seed":"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f","commitment":"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd","entrantsHash":"f150c8a68934acd5919016c321349010d893a4069c790a19faf8ff4548e506b2","picked":[{"index":0,"userId":10,"name":"Jack Alexy","username":"JAlex","regDate":"2020-10-19","void":false},{"index":1,"userId":22,"name":"Mr. Hashemi","username":"Hashaaa","regDate":"2019-08-19","void":false},{"index":2,"userId":4,"name":"Mack","username":"mackMack13","regDate":"2018-10-02","void":false},{"index":3,"userId":182,"name":"Mohsen","username":"AghaMohsen","regDate":"2020-04-12","void":true}],"picks":[3,0,2,1,2,3,0,0,2,2],"rounds":10,"startedAt":1.000,"finishedAt":2.000}"#

    @Test func oneWinnerMessagesAreUnchanged() {
        let finished = WireMessages.finished(FinishedDraw(plan: Fixtures.plan, startedAt: 1, finishedAt: 2))
        #expect(Fixtures.text(finished) == Self.oneWinnerFinished)
        let started = Fixtures.text(WireMessages.started(Fixtures.plan, startedAt: 1))
        #expect(!started.contains("winners"))
        let record = Fixtures.text(RecordMessages.record(RecordMessagesTests.record(.finished, shown: 10)))
        #expect(!record.contains("\"winners\"") && !record.contains("winnerPicks"))
    }

    @Test func startedAnnouncesTheCountButNoSlot() throws {
        let m = try Fixtures.object(WireMessages.started(Self.threeWinners, startedAt: 1))
        #expect(m["winners"] as? Int == 3)
        #expect(m["winnerPicks"] == nil)
    }

    @Test func finishedListsEverySlotAsTheVectorsDo() throws {
        let m = try Fixtures.object(WireMessages.finished(FinishedDraw(plan: Self.threeWinners, startedAt: 1, finishedAt: 2)))
        #expect(m["winners"] as? Int == 3)
        // Slot 1 is still the outcome, drawn and winner fields: the void entry, no winner.
        #expect(m["outcome"] as? String == "void" && m["winner"] is NSNull)
        let slots = try #require(m["winnerPicks"] as? [[String: Any]])
        #expect(slots.map { $0["index"] as? Int } == [3, 1, 0])
        #expect(slots.map { $0["void"] as? Bool } == [true, false, false])

        let vector = try #require(try Self.vectorRecord("void-outcome/3-winners/finished"))
        let expected = try #require(vector["winnerPicks"] as? [[String: Any]])
        #expect(NSArray(array: slots) == NSArray(array: expected))
    }

    @Test func recordsListSlotsOnlyOnceFinished() throws {
        let finished = try Fixtures.object(RecordMessages.record(
            RecordMessagesTests.record(.finished, shown: 10, plan: Self.threeWinners)))
        #expect(finished["winners"] as? Int == 3)
        #expect((finished["winnerPicks"] as? [[String: Any]])?.count == 3)
        #expect(finished["verified"] as? Bool == true)

        let aborted = try Fixtures.object(RecordMessages.record(
            RecordMessagesTests.record(.aborted, shown: 4, plan: Self.threeWinners)))
        #expect(aborted["winners"] as? Int == 3)
        #expect(aborted["winnerPicks"] is NSNull)
        #expect(aborted["verified"] as? Bool == true)
    }

    static func vectorRecord(_ name: String) throws -> [String: Any]? {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../vectors/fairness.json").standardized
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let records = all?["records"] as? [[String: Any]] ?? []
        return records.first { $0["name"] as? String == name }?["record"] as? [String: Any]
    }
}
