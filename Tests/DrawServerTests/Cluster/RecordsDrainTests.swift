import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Logging
import Testing

/// Shutdown's records phase (`RecordsDrain`, issue 36 finding 5) on the owners, without sockets
/// or Redis: a real SQLite store behind the real storage thread (`ServerStorage`), a real history
/// outbox on it, a `FakeLoop` as the service thread, and a shared history whose answers the test
/// holds back (a slow Redis). The end of a draw is written as the runner writes it: through the
/// storage thread, its line owed when the write comes back, the stop beginning right then.
@Suite struct RecordsDrainTests {
    /// The shared history's hops, held until the test lets them run.
    final class HeldHops: @unchecked Sendable {
        private let lock = NSLock()
        private var jobs: [@Sendable () -> Void] = []
        var count: Int { lock.withLock { jobs.count } }
        func hold(_ job: @escaping @Sendable () -> Void) -> Bool {
            lock.withLock { jobs.append(job) }
            return true
        }
        func runAll() {
            for job in lock.withLock({ () -> [@Sendable () -> Void] in defer { jobs = [] }; return jobs }) { job() }
        }
    }

    struct Fixture {
        let loop = FakeLoop()
        let store: SQLiteDrawStore
        let storage: ServerStorage
        let shared = FakeSharedRecords()
        let redis = HeldHops()
        let outbox: HistoryOutbox

        init() throws {
            let store = try SQLiteDrawStore(path: ":memory:")
            self.store = store
            var logger = Logger(label: "records-drain")
            logger.logLevel = .critical
            let storage = ServerStorage(store: store, rooms: nil, executor: loop.executor, logger: logger)
            self.storage = storage
            let redis = self.redis
            let backend = HistoryOutbox.Backend(records: shared, rows: store,
                                                localRecord: { id throws(StorageError) in try store.record(id: id) },
                                                onStore: { job in storage.submit(job, reading: .draws) },
                                                onShared: { job in redis.hold(job) })
            outbox = HistoryOutbox(backend: backend, loop: loop, clock: DrawRunnerPacingTests.ManualClock(), logger: logger)
        }

        /// Runs the service thread's jobs until `done` holds (the storage thread answers through
        /// the inbox), for at most 5 s.
        func runJobs(until done: () -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: 5)
            while Date() < deadline {
                loop.runJobs()
                if done() { return true }
                Thread.sleep(forTimeInterval: 0.001)
            }
            return false
        }

        /// A draw that ran here under lease token 7, its end being written as the runner does it:
        /// its row owed ahead, the write through the storage thread, its line owed once on disk.
        func endDraw() throws -> String {
            let plan = HistoryOutboxTests.Fixture.plan(5)
            try store.insertStarted(NewDrawRecord(room: "quiz", plan: plan, sources: RunningServer.sources,
                                                  createdAt: 1_700_000_000_000, startedAt: 1_700_000_000_500))
            outbox.oweAhead(drawId: plan.drawId, room: "quiz", token: 7)
            let outbox = self.outbox
            _ = storage.record(.finish(drawId: plan.drawId, ending: .aborted(reason: "server_shutdown"),
                                       finishedAt: 1_732_262_399_000, seed: plan.seed)) { error in
                if error == nil { outbox.owe(drawId: plan.drawId, room: "quiz", token: 7, final: true) }
            }
            return plan.drawId
        }

        static let graceNanos: UInt64 = 2_000_000_000

        /// The stop begins right after a draw's end was handed to the store (`endDraw`); returned
        /// once the end's line waits for Redis.
        func stopRightAfterADrawsEnd() throws -> Stop {
            let drawId = try endDraw()
            let stop = Stop(drawId: drawId, drain: RecordsDrain(loop: loop, storage: storage, history: outbox,
                                                                graceNanos: Self.graceNanos))
            let started = stop.drain.start { outcome in stop.outcome = outcome }
            #expect(started, "there is a store to wait for")
            #expect(runJobs { redis.count == 1 }, "the end's line reached the shared history's thread")
            return stop
        }
    }

    /// A stop in progress: the phase (held, as the coordinator holds it) and how it ended.
    final class Stop {
        let drawId: String
        let drain: RecordsDrain
        var outcome: RecordsDrain.Outcome?
        init(drawId: String, drain: RecordsDrain) {
            self.drawId = drawId
            self.drain = drain
        }
    }

    /// The finding: the stop's one barrier came back before the end's line was sent and its row
    /// deleted, so the store closed with that work queued. Now the phase ends only once Redis
    /// acknowledged the line and its row is gone, with nothing left on the storage thread.
    @Test func theRecordsPhaseEndsOnlyOnceTheEndsLineIsAcknowledgedAndSettled() throws {
        let f = try Fixture()
        defer { f.storage.close() }
        let stop = try f.stopRightAfterADrawsEnd()
        #expect(stop.outcome == nil, "not over while the line waits for Redis")
        #expect(try f.store.owed(limit: 10).map(\.drawId) == [stop.drawId])

        f.redis.runAll()
        #expect(f.runJobs { stop.outcome != nil })
        #expect(stop.outcome == .done)
        #expect(f.shared.keeps.map(\.final) == [true] && f.shared.keeps.first?.token == 7)
        #expect(try f.store.owed(limit: 10) == [], "the row was deleted before the phase ended")
        #expect(f.storage.pending == 0, "nothing left queued for the store's close")
    }

    /// Redis never answers: the phase ends at its bound and says what is left; the line stays
    /// owed in the outbox, for the next start.
    @Test func pastItsBoundThePhaseSaysWhatIsStillOwed() throws {
        let f = try Fixture()
        defer { f.storage.close() }
        let stop = try f.stopRightAfterADrawsEnd()
        let bound = try #require(f.loop.timers.first { $0.armed == Fixture.graceNanos })
        bound.fire()
        #expect(stop.outcome == .timedOut(queued: 0, owedLines: 1))
        #expect(try f.store.owed(limit: 10).map(\.drawId) == [stop.drawId])
    }

    /// The end's row is on disk no later than the end itself: a stop (or crash) right after the
    /// finish write, before its line was owed in memory, still leaves the line owed, with the
    /// draw's token, and the next start sends it as the end.
    @Test func theEndsRowIsWrittenAheadOfTheEnd() throws {
        let f = try Fixture()
        defer { f.storage.close() }
        let plan = HistoryOutboxTests.Fixture.plan(6)
        try f.store.insertStarted(NewDrawRecord(room: "quiz", plan: plan, sources: RunningServer.sources,
                                                createdAt: 1_700_000_000_000, startedAt: 1_700_000_000_500))
        f.outbox.oweAhead(drawId: plan.drawId, room: "quiz", token: 7)
        var written = false
        _ = f.storage.record(.finish(drawId: plan.drawId, ending: .finished, finishedAt: 1_732_262_399_000,
                                     seed: plan.seed)) { _ in written = true }
        #expect(f.runJobs { written })
        // The process stops here: the end is on disk, its line was never owed in memory.
        #expect(f.shared.keeps.isEmpty)

        // The next start: another outbox on the same rows.
        let next = try HistoryOutboxTests.Fixture(store: f.store)
        next.outbox.resume()
        next.loop.runJobs()
        #expect(next.shared.keeps.map(\.final) == [true] && next.shared.keeps.first?.token == 7,
                "the next start sends the end under the draw's token")
        let line = try #require(next.shared.keeps.first?.summary)
        #expect(String(decoding: line, as: UTF8.self).contains(#""status":"finished""#))
    }
}
