@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Startup recovery and the rule that a running draw's seed is never served.
    struct StoreRecoveryTests {
        @Test func restartMarksRunningDrawsInterruptedAndRevealsTheirSeeds() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let cut = StoreFixtures.plan(1), done = StoreFixtures.plan(2)
                // The process that "dies": it never finishes `cut` and never closes, so its commits are
                // still only in the WAL (no checkpoint on close), as after a kill -9 — whose process
                // lock the kernel has dropped, hence no lock here.
                var dying = SQLiteDrawStore.Configuration(path: path)
                dying.locksFile = false
                let crashed = try SQLiteDrawStore(configuration: dying)
                defer { crashed.close() }
                try StoreFixtures.runToEnd(StoreFixtures.started(done), in: crashed)
                try crashed.insertStarted(StoreFixtures.started(cut))
                for r in 1...3 { try crashed.recordRound(drawId: cut.drawId, round: r, sentAt: Double(r) * 10) }
                #expect(FileManager.default.fileExists(atPath: path + "-wal"))

                let restarted = try SQLiteDrawStore(path: path)
                defer { restarted.close() }
                let finishedBefore = try restarted.record(id: done.drawId)
                #expect(try restarted.record(id: cut.drawId)?.seed == nil)

                #expect(try restarted.markRunningInterrupted(at: 5000.5) == 1)

                let record = try #require(try restarted.record(id: cut.drawId))
                #expect(record.status == .interrupted)
                #expect(record.finishedAt == 5000.5)
                #expect(record.seed == cut.seed)
                #expect(record.rounds.map(\.sentAt) == [10, 20, 30] + Array(repeating: nil, count: 7))
                #expect(record.outcome == nil)
                #expect(record.verify()?.isValid == true)
                #expect(try restarted.record(id: done.drawId) == finishedBefore)
                // Idempotent: a second startup finds nothing left running.
                #expect(try restarted.markRunningInterrupted(at: 6000) == 0)
            }
        }

        /// The use case the executable calls at startup: one call, stamped with the clock's time.
        @Test func recoverInterruptedDrawsMarksRunningDrawsAtNow() throws {
            struct FixedClock: DrawClock {
                func epochMillis() -> Double { 7777.5 }
                func monotonicNanos() -> UInt64 { 0 }
            }
            try StoreFixtures.withStore { store, _ in
                let cut = StoreFixtures.plan(4), done = StoreFixtures.plan(5)
                try StoreFixtures.runToEnd(StoreFixtures.started(done), in: store)
                try store.insertStarted(StoreFixtures.started(cut))
                try store.recordRound(drawId: cut.drawId, round: 1, sentAt: 1)

                let recover = RecoverInterruptedDraws(store: store, clock: FixedClock())
                #expect(try recover.execute() == 1)
                let record = try #require(try store.record(id: cut.drawId))
                #expect(record.status == .interrupted)
                #expect(record.finishedAt == 7777.5)
                #expect(record.seed == cut.seed)
                #expect(try store.record(id: done.drawId)?.status == .finished)
                #expect(try recover.execute() == 0)
            }
        }

        @Test func runningDrawsPublicViewHasNoSeedUntilItFinishes() throws {
            try StoreFixtures.withStore { store, _ in
                let plan = StoreFixtures.plan(3)
                try store.insertStarted(StoreFixtures.started(plan))
                try store.recordRound(drawId: plan.drawId, round: 1, sentAt: 1)
                try store.recordRound(drawId: plan.drawId, round: 2, sentAt: 2)

                let running = try #require(try store.record(id: plan.drawId))
                #expect(running.status == .running)
                #expect(running.seed == nil)
                #expect(running.verificationInputs == nil)
                // Only what viewers have seen: two rounds, no result.
                #expect(running.rounds.map(\.round) == [1, 2])
                #expect(running.outcome == nil)
                #expect(running.commitment == plan.commitment)
                // ...yet the seed is on disk from the start, so a crash cannot lose it.
                let stored = try store.withConnection { db in
                    try db.scalarText("SELECT seed_hex FROM draws WHERE draw_id = ?", [.text(plan.drawId)])
                }
                #expect(stored == plan.seed.hex)

                for r in 3...10 { try store.recordRound(drawId: plan.drawId, round: r, sentAt: Double(r)) }
                try store.finish(drawId: plan.drawId, ending: .finished, finishedAt: 11)
                let finished = try #require(try store.record(id: plan.drawId))
                #expect(finished.seed == plan.seed)
                #expect(finished.outcome == plan.outcome)
            }
        }
    }
}
