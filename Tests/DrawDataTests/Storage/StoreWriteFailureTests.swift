@testable import DrawData
import CSQLite
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// A write that fails mid-draw is an error the server can turn into "abort this draw", the store
    /// stays usable, and nothing half-written is left.
    struct StoreWriteFailureTests {
        @Test func writeBlockedByAnotherWriterFailsAndTheDrawCanStillBeAborted() throws {
            try StoreFixtures.withStore({ $0.busyTimeoutMs = 50 }) { store, _ in
                let plan = StoreFixtures.plan(8)
                try store.insertStarted(StoreFixtures.started(plan))
                try store.recordRound(drawId: plan.drawId, round: 1, sentAt: 10)

                let other = try SQLiteConnection(path: store.path, flags: SQLITE_OPEN_READWRITE, busyTimeoutMs: 0)
                try other.execute("BEGIN IMMEDIATE")
                let error = storageError { try store.recordRound(drawId: plan.drawId, round: 2, sentAt: 20) }
                guard case .writeFailed(store.path, _, let reason)? = error else {
                    Issue.record("expected writeFailed, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("locked"))
                expectOneLine(error, naming: store.path)
                try other.execute("ROLLBACK")

                // What the server does next: abort the draw. The store took no part of the failed write.
                try store.finish(drawId: plan.drawId, ending: .aborted(reason: "storage_failure"), finishedAt: 30)
                let record = try #require(try store.record(id: plan.drawId))
                #expect(record.status == .aborted)
                #expect(record.abortReason == "storage_failure")
                #expect(record.roundsShown == 1)
            }
        }

        @Test func fullDiskFailsTheInsertAtomically() throws {
            try StoreFixtures.withStore { store, _ in
                // SQLite's own size cap stands in for a full disk: the same SQLITE_FULL, without filling one.
                try StoreFixtures.fill(store)
                let plan = StoreFixtures.bigPlan(9)
                let error = storageError { try store.insertStarted(StoreFixtures.started(plan)) }
                guard case .writeFailed(_, _, let reason)? = error else {
                    Issue.record("expected writeFailed, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("full"))
                #expect(try store.record(id: plan.drawId) == nil)
                #expect(try store.list(room: "lobby", page: DrawPageRequest()).draws.isEmpty)
            }
        }

        @Test func closedStoreRefusesEveryCall() throws {
            let store = try SQLiteDrawStore(path: ":memory:")
            store.close()
            store.close()
            let plan = StoreFixtures.plan(1)
            let expected = StorageError.closed(path: ":memory:")
            #expect(storageError { try store.insertStarted(StoreFixtures.started(plan)) } == expected)
            #expect(storageError { try store.recordRound(drawId: plan.drawId, round: 1, sentAt: 1) } == expected)
            #expect(storageError { try store.finish(drawId: plan.drawId, ending: .finished, finishedAt: 1) } == expected)
            #expect(storageError { _ = try store.markRunningInterrupted(at: 1) } == expected)
            #expect(storageError { _ = try store.record(id: plan.drawId) } == expected)
            #expect(storageError { _ = try store.list(room: "lobby", page: DrawPageRequest()) } == expected)
        }
    }
}
