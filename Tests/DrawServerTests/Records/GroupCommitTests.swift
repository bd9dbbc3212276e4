import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// The storage thread commits the writes queued at one moment together, and still reports each
    /// write's own result, in order.
    @Suite struct GroupCommitTests {
        /// Collects write results as the storage thread hands them back; guarded by its lock.
        final class Results: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [(index: Int, error: StorageError?)] = []
            private let all = DispatchSemaphore(value: 0)
            private let expected: Int

            init(expecting expected: Int) { self.expected = expected }

            func done(_ index: Int) -> StorageThread.WriteDone {
                { error in
                    let count = self.lock.withLock { self.entries.append((index, error)); return self.entries.count }
                    if count == self.expected { self.all.signal() }
                }
            }

            /// Waits (bounded) until every expected result came back.
            func wait() -> Bool { all.wait(timeout: .now() + 30) == .success }
            var inOrder: [Int] { lock.withLock { entries.map(\.index) } }
            var errors: [StorageError?] { lock.withLock { entries.sorted { $0.index < $1.index }.map(\.error) } }
        }

        /// A storage thread over a real store (through a `FaultyStore`), held at a gate.
        struct Fixture {
            let dir: TestDataDirectory
            let real: SQLiteDrawStore
            let faulty: FaultyStore
            let thread: StorageThread
            /// Released by `run`: the storage thread waits on it, so everything submitted
            /// meanwhile queues up and is taken at once.
            let gate = DispatchSemaphore(value: 0)

            init(failing faults: Set<FaultyStore.Fault> = []) throws {
                dir = try TestDataDirectory()
                real = try dir.open()
                faulty = FaultyStore(real, failing: faults)
                thread = StorageThread(name: "test storage", store: RecoveringDrawStore(faulty))
                let gate = self.gate
                thread.submit { gate.wait() }
            }

            /// Submits `writes` behind the gate, opens it, and waits for every result.
            func run(_ writes: [DrawWrite]) throws -> Results {
                let results = Results(expecting: writes.count)
                for (i, write) in writes.enumerated() { #expect(thread.submit(write, done: results.done(i))) }
                gate.signal()
                try #require(results.wait(), "not every write was reported")
                return results
            }
        }

        static func plan(_ n: Int) -> DrawPlan {
            let seed = Seed(bytes: (0..<32).map { UInt8(truncatingIfNeeded: $0 &+ n) })!
            let id = String(repeating: "0", count: 28) + String(format: "%04x", n)
            return DrawPlan.make(drawId: id, entrants: RunningServer.players, seed: seed, schedule: .original)
        }

        static func started(_ plan: DrawPlan) -> DrawWrite {
            .started(NewDrawRecord(room: "lobby", plan: plan, sources: RunningServer.sources, createdAt: 1, startedAt: 2))
        }

        @Test func manyQueuedWritesShareOneCommitAndEachIsReported() throws {
            let t = try Fixture()
            let plans = (1...100).map(Self.plan)
            let writes = plans.flatMap { plan -> [DrawWrite] in
                [Self.started(plan), .startedAt(drawId: plan.drawId, startedAt: 3),
                 .round(drawId: plan.drawId, round: 1, sentAt: 4)]
            }
            let results = try t.run(writes)
            #expect(results.inOrder == Array(writes.indices), "results come back in submission order")
            #expect(results.errors.allSatisfy { $0 == nil })
            #expect(t.faulty.groupsCommitted == 1, "300 writes queued together, one transaction")
            for plan in plans {
                let record = try #require(try t.real.record(id: plan.drawId))
                #expect(record.startedAt == 3 && record.roundsShown == 1)
            }
            t.thread.finish()
        }

        @Test func aFailingWriteIsReportedFailedAndTheOthersAreKept() throws {
            let t = try Fixture(failing: [.round(3)])
            let a = Self.plan(1), b = Self.plan(2)
            let writes: [DrawWrite] = [Self.started(a)] + (1...5).map { .round(drawId: a.drawId, round: $0, sentAt: Double($0)) }
                + [.round(drawId: b.drawId, round: 1, sentAt: 1), Self.started(b)]
            let errors = try t.run(writes).errors
            #expect(errors.count == writes.count)
            for (i, error) in errors.enumerated() {
                switch i {
                case 3: #expect(error.map { "\($0)" }?.contains("injected failure") == true, "round 3")
                case 6: #expect(error == .unknownDraw(drawId: b.drawId), "b's round before b's start")
                default: #expect(error == nil, "write \(i)")
                }
            }
            #expect(t.faulty.groupsCommitted == 1)
            let record = try #require(try t.real.record(id: a.drawId))
            #expect(record.rounds.map(\.sentAt) == [1, 2, 4, 5])   // running: only the rounds shown
            #expect(try t.real.record(id: b.drawId)?.status == .running)
            t.thread.finish()
        }

        /// The group as a whole fails (its commit, say): nothing of it was kept, so every write is
        /// made again alone and reported with that result. None fails because of another.
        @Test func aGroupThatFailsIsMadeAgainWriteByWrite() throws {
            let t = try Fixture(failing: [.group])
            let plans = (1...5).map(Self.plan)
            let writes = plans.flatMap { [Self.started($0), .round(drawId: $0.drawId, round: 1, sentAt: 9)] }
            let errors = try t.run(writes).errors
            #expect(errors.allSatisfy { $0 == nil }, "\(errors)")
            #expect(t.faulty.groupsCommitted == 0)
            for plan in plans {
                #expect(try t.real.record(id: plan.drawId)?.roundsShown == 1, "kept exactly once")
            }
            t.thread.finish()
        }

        /// Order across a group: a read queued behind writes sees them, and their results were
        /// handed back before it ran (so a history read never gets ahead of what the service
        /// thread was told).
        @Test func aReadQueuedBehindWritesSeesThemAfterTheirResults() throws {
            let t = try Fixture()
            let plan = Self.plan(7)
            let results = Results(expecting: 2)
            #expect(t.thread.submit(Self.started(plan), done: results.done(0)))
            #expect(t.thread.submit(.round(drawId: plan.drawId, round: 1, sentAt: 5), done: results.done(1)))
            let read = DispatchSemaphore(value: 0)
            let seen = Results(expecting: 1)
            let real = t.real
            t.thread.submit {
                let reported = results.inOrder
                let shown = (try? real.record(id: plan.drawId))??.roundsShown
                seen.done(reported == [0, 1] && shown == 1 ? 1 : 0)(nil)
                read.signal()
            }
            t.gate.signal()
            #expect(read.wait(timeout: .now() + 30) == .success)
            #expect(seen.inOrder == [1])
            t.thread.finish()
        }
    }
}
