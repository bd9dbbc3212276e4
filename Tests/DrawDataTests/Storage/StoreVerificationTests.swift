@testable import DrawData
import DrawCore
import Testing

extension StorageTests {
    /// A record read back from disk is enough to recompute the draw (FAIRNESS.md).
    struct StoreVerificationTests {
        @Test func picksRecomputedFromARecordOnDiskMatchTheStoredOnes() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let plan = StoreFixtures.plan(42, warnings: StoreFixtures.allWarnings, schedule: StoreFixtures.decelerating)
                let writer = try SQLiteDrawStore(path: path)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: writer)
                writer.close()

                let reader = try SQLiteDrawStore(path: path)
                defer { reader.close() }
                let record = try #require(try reader.record(id: plan.drawId))
                let inputs = try #require(record.verificationInputs)
                let recomputed = DrawPlan.make(drawId: inputs.drawId, entrants: inputs.entrants, seed: inputs.seed,
                                               schedule: inputs.schedule)
                #expect(recomputed.rounds.map(\.pickIndex) == record.rounds.map(\.pickIndex))
                #expect(recomputed.commitment == record.commitment)
                #expect(recomputed.entrantsHash == record.entrantsHash)
                #expect(record.verify()?.isValid == true)
            }
        }

        @Test func aTamperedPickIsCaught() throws {
            try StoreFixtures.withStore { store, _ in
                let plan = StoreFixtures.plan(43)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: store)
                try store.withConnection { db in
                    try db.run("UPDATE rounds SET pick_index = (pick_index + 1) % 4 WHERE round = 5")
                }
                let verification = try #require(try store.record(id: plan.drawId)?.verify())
                #expect(verification.commitmentMatches && verification.entrantsHashMatches)
                #expect(verification.mismatchedRounds == [5])
                #expect(!verification.isValid)
            }
        }
    }
}
