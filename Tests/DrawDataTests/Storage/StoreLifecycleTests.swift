@testable import DrawData
import DrawCore
import Testing

extension StorageTests {
    /// Calls out of order are refused with a precise error and change nothing.
    struct StoreLifecycleTests {
        @Test func roundsAndEndingsNeedARunningDraw() throws {
            try StoreFixtures.withStore { store, _ in
                let plan = StoreFixtures.plan(1)
                let id = plan.drawId
                #expect(storageError { try store.recordRound(drawId: id, round: 1, sentAt: 1) } == .unknownDraw(drawId: id))
                #expect(storageError { try store.finish(drawId: id, ending: .finished, finishedAt: 1) }
                        == .unknownDraw(drawId: id))

                try store.insertStarted(StoreFixtures.started(plan))
                #expect(storageError { try store.recordRound(drawId: id, round: 0, sentAt: 1) }
                        == .unknownRound(drawId: id, round: 0))
                #expect(storageError { try store.recordRound(drawId: id, round: 11, sentAt: 1) }
                        == .unknownRound(drawId: id, round: 11))

                try store.finish(drawId: id, ending: .aborted(reason: "server_shutdown"), finishedAt: 2)
                #expect(storageError { try store.finish(drawId: id, ending: .finished, finishedAt: 3) }
                        == .notRunning(drawId: id, status: .aborted))
                #expect(storageError { try store.recordRound(drawId: id, round: 1, sentAt: 4) }
                        == .notRunning(drawId: id, status: .aborted))
                #expect(try store.record(id: id)?.finishedAt == 2)
            }
        }

        @Test func drawIdsAreUnique() throws {
            try StoreFixtures.withStore { store, _ in
                let plan = StoreFixtures.plan(1)
                try store.insertStarted(StoreFixtures.started(plan))
                #expect(storageError { try store.insertStarted(StoreFixtures.started(plan, room: "other")) }
                        == .duplicateDraw(drawId: plan.drawId))
                let failed = FailedDrawRecord(drawId: plan.drawId, room: "lobby", error: .noPlayers(warnings: []),
                                              sources: StoreFixtures.sources, createdAt: 1, failedAt: 2)
                #expect(storageError { try store.insertFailed(failed) } == .duplicateDraw(drawId: plan.drawId))
                #expect(try store.list(room: "other", page: DrawPageRequest()).draws.isEmpty)
            }
        }

        @Test func unknownIdReadsAsNil() throws {
            try StoreFixtures.withStore { store, _ in
                let record = try store.record(id: StoreFixtures.drawId(404))
                #expect(record == nil)
            }
        }
    }
}
