@testable import DrawData
import DrawCore
import Testing

extension StorageTests {
    /// `EntrantListTable.entries`, the one query that reads part of a stored list: a history
    /// line's winner slots, without decoding the whole list in Swift.
    struct EntrantListTableTests {
        /// A finished draw of three winners, its plan.
        static func threeWinners(in store: SQLiteDrawStore) throws -> DrawPlan {
            let base = StoreFixtures.plan(51)
            let plan = DrawPlan.make(drawId: base.drawId, entrants: base.entrants, seed: base.seed,
                                     schedule: base.schedule, winners: 3)
            try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: store)
            return plan
        }

        @Test func entriesAreTheListsEntriesAtTheIndicesInTheirOrder() throws {
            try StoreFixtures.withStore { store, _ throws in
                let plan = try Self.threeWinners(in: store)
                let indices = [2, 0]
                let found = try store.withConnection { db in
                    try EntrantListTable.entries(indices, ofList: plan.entrantsHash, in: db)
                }
                #expect(try StoredJSON.entrants(from: #require(found)) == indices.map { plan.entrants[$0] })
                let unknown = try store.withConnection { db in
                    try EntrantListTable.entries(indices, ofList: String(repeating: "0", count: 64), in: db)
                }
                #expect(unknown == nil)
            }
        }

        @Test func aHistoryPageShowsTheSlotsAndFailsWhenTheirListIsGone() throws {
            try StoreFixtures.withStore { store, _ throws in
                let plan = try Self.threeWinners(in: store)
                let page = try store.list(room: "lobby", page: DrawPageRequest(limit: 10))
                #expect(page.draws.first?.winnerPicks == plan.winnerPicks)

                // No foreign key keeps a draw's list: only a hand-edited file can lose it.
                try store.withConnection { db in
                    try db.run("DELETE FROM entrant_lists WHERE sha256 = ?", [.text(plan.entrantsHash)])
                }
                let error = storageError { _ = try store.list(room: "lobby", page: DrawPageRequest(limit: 10)) }
                guard case .readFailed(_, _, let reason)? = error else {
                    Issue.record("expected readFailed, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("its entrant list \(plan.entrantsHash) is missing"))
            }
        }
    }
}
