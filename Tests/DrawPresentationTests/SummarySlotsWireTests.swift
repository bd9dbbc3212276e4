import DrawCore
import DrawPresentation
import Foundation
import Testing

/// A history line names every winner (issue 28, item 5): `winners` and `winnerPicks` as in the
/// draw's record, only for k > 1 and only once finished; the restored last result keeps k.
struct SummarySlotsWireTests {
    static let threeWinners = WinnerSlotsWireTests.threeWinners

    @Test func aFinishedLineListsEverySlotAsItsRecordDoes() throws {
        let record = RecordMessagesTests.record(.finished, shown: 10, plan: Self.threeWinners)
        let line = try Fixtures.object(RecordMessages.summary(DrawSummary(record: record)))
        let full = try Fixtures.object(RecordMessages.record(record))
        #expect(line["winners"] as? Int == 3)
        let slots = try #require(line["winnerPicks"] as? [[String: Any]])
        #expect(NSArray(array: slots) == NSArray(array: try #require(full["winnerPicks"] as? [[String: Any]])))
        #expect(line["seed"] == nil)
    }

    @Test func aStoppedLineHasTheCountButNoSlots() throws {
        for status in [DrawStatus.aborted, .interrupted, .running] {
            let record = RecordMessagesTests.record(status, shown: 4, plan: Self.threeWinners)
            let line = try Fixtures.object(RecordMessages.summary(DrawSummary(record: record)))
            #expect(line["winners"] as? Int == 3, "\(status)")
            #expect(line["winnerPicks"] is NSNull, "\(status)")
        }
        let running = DrawSummary(record: RecordMessagesTests.record(.running, shown: 4, plan: Self.threeWinners))
        #expect(running.aborted(finishedAt: 9).winners == 3)
    }

    @Test func aOneWinnerLineKeepsItsShape() throws {
        let line = Fixtures.text(RecordMessages.summary(DrawSummary(record: RecordMessagesTests.record(.finished, shown: 10))))
        #expect(!line.contains("\"winners\"") && !line.contains("winnerPicks"))
    }

    @Test func aRestoredResultKeepsItsWinnerCount() throws {
        let record = RecordMessagesTests.record(.finished, shown: 10, plan: Self.threeWinners)
        let restored = try #require(FinishedDraw(record: record))
        #expect(restored.plan.winners == 3)
        #expect(restored.plan.winnerPicks == Self.threeWinners.winnerPicks)
    }
}
