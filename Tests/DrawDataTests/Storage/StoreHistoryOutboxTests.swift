@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Cluster mode's history outbox in SQLite (schema 7): one row per draw owed, merged when owed
    /// again, gone once settled; a restart's reconciled draws owed in the same transaction.
    struct StoreHistoryOutboxTests {
        static let takeover = OwedHistoryLine.TakeoverEnd(seedHex: String(repeating: "ab", count: 32), roundsShown: 3,
                                                          endedAt: 1_700_000_000_123.5)

        @Test func aDrawOwedAgainKeepsOneRowAndItsPlace() throws {
            try StoreFixtures.withStore { store, _ in
                try store.owe(OwedHistoryLine(drawId: "a", room: "quiz", token: 4, final: false))
                try store.owe(OwedHistoryLine(drawId: "b", room: "quiz", token: 0, final: true, takeover: Self.takeover))
                // `a` again: its end with an older token. An end stays an end, the newer token wins.
                try store.owe(OwedHistoryLine(drawId: "a", room: "quiz", token: 2, final: true))
                try store.owe(OwedHistoryLine(drawId: "a", room: "quiz", token: 3, final: false))
                #expect(try store.owed(limit: 10) == [
                    OwedHistoryLine(drawId: "a", room: "quiz", token: 4, final: true),
                    OwedHistoryLine(drawId: "b", room: "quiz", token: 0, final: true, takeover: Self.takeover),
                ])
                #expect(try store.owed(limit: 1).map(\.drawId) == ["a"], "oldest first, at most the limit")
                try store.settle(drawId: "a")
                try store.settle(drawId: "never-owed")
                #expect(try store.owed(limit: 10).map(\.drawId) == ["b"])
            }
        }

        @Test func aTokenPastWhatSQLiteHoldsIsRefusedNotWrapped() throws {
            try StoreFixtures.withStore { store, _ in
                try store.owe(OwedHistoryLine(drawId: "max", room: "quiz", token: UInt64(Int64.max), final: true))
                #expect(try store.owed(limit: 1).first?.token == UInt64(Int64.max))
                let error = storageError { try store.owe(OwedHistoryLine(drawId: "past", room: "quiz", token: UInt64(Int64.max) + 1, final: true)) }
                guard case .writeFailed? = error else {
                    Issue.record("expected a write failure, got \(String(describing: error))")
                    return
                }
                #expect(try store.owed(limit: 10).map(\.drawId) == ["max"])
            }
        }

        @Test func recoveryOwesTheReconciledDrawsAsEndsWithTokenZero() throws {
            try StoreFixtures.withStore { store, _ in
                let running = StoreFixtures.plan(1), done = StoreFixtures.plan(2), owedBefore = StoreFixtures.plan(3)
                try store.insertStarted(StoreFixtures.started(running, room: "one"))
                try StoreFixtures.runToEnd(StoreFixtures.started(done, room: "two"), in: store)
                try store.insertStarted(StoreFixtures.started(owedBefore, room: "three"))
                try store.owe(OwedHistoryLine(drawId: owedBefore.drawId, room: "three", token: 7, final: false))

                let clock = FixedClock(now: 1_800_000_000_000)
                let count = try RecoverInterruptedDraws(store: store, clock: clock, outbox: store).execute()
                #expect(count == 2)
                #expect(try store.record(id: running.drawId)?.status == .interrupted)
                #expect(try store.owed(limit: 10) == [
                    OwedHistoryLine(drawId: owedBefore.drawId, room: "three", token: 7, final: true),
                    OwedHistoryLine(drawId: running.drawId, room: "one", token: 0, final: true),
                ])
            }
        }

        @Test func theNewestDrawsComeNewestFirstUpToTheLimit() throws {
            try StoreFixtures.withStore { store, _ in
                for n in 1...5 { try store.insertStarted(StoreFixtures.started(StoreFixtures.plan(n), room: "r\(n % 2)")) }
                let newest = try store.newestDraws(limit: 3, since: 0)
                #expect(newest.map(\.drawId) == [5, 4, 3].map(StoreFixtures.drawId))
                #expect(newest.map(\.room) == ["r1", "r0", "r1"])
                #expect(try store.newestDraws(limit: 10, since: 0).count == 5)
            }
        }

        /// Schema 6 → 7 adds the empty outbox and leaves the draws as they were.
        @Test func theSchema7MigrationAddsAnEmptyOutboxToAnOlderFile() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let plan = StoreFixtures.plan(9)
                let old = try StoreFixtures.store(at: path, schemaVersion: 6)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: old)
                let before = try old.record(id: plan.drawId)
                #expect(storageError { _ = try old.owed(limit: 1) } != nil, "schema 6 has no outbox")
                old.close()

                let current = try StoreFixtures.store(at: path, schemaVersion: 7)
                defer { current.close() }
                #expect(try current.schemaVersion() == 7)
                #expect(try current.record(id: plan.drawId) == before)
                #expect(try current.owed(limit: 10) == [])
                try current.owe(OwedHistoryLine(drawId: plan.drawId, room: "lobby", token: 1, final: true))
                #expect(try current.owed(limit: 10).count == 1)
            }
        }
    }
}

/// A clock that always says `now`.
private struct FixedClock: DrawClock {
    let now: Double
    func epochMillis() -> Double { now }
    func monotonicNanos() -> UInt64 { 0 }
}
