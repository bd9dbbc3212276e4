import DrawCore
import DrawData
import DrawPresentation
@testable import DrawServer
import Logging
import Testing

/// The history outbox (`HistoryOutbox`) without sockets or Redis: a real SQLite store (in
/// memory) holds its rows, a scripted shared history answers, the blocking hops run inline on
/// the test thread and their answers come back through a `FakeLoop`'s inbox; time is a manual
/// clock, retries are the fake loop's timer fired by hand.
@Suite struct HistoryOutboxTests {
    typealias Clock = DrawRunnerPacingTests.ManualClock

    struct Fixture {
        let loop = FakeLoop()
        let clock = Clock()
        let shared: FakeSharedRecords
        let store: SQLiteDrawStore
        let outbox: HistoryOutbox

        init(store: SQLiteDrawStore? = nil, shared: FakeSharedRecords = FakeSharedRecords(),
             queue: HistoryOutboxQueue = HistoryOutboxQueue(), resumeBatch: Int = HistoryOutbox.resumeBatch,
             windowMs: Int64 = HistoryRetention.standard.windowMs) throws {
            let store = try store ?? SQLiteDrawStore(path: ":memory:")
            self.store = store
            self.shared = shared
            let backend = HistoryOutbox.Backend(records: shared, rows: store,
                                                localRecord: { id throws(StorageError) in try store.record(id: id) },
                                                onStore: { job in job(); return true }, onShared: { job in job(); return true })
            var logger = Logger(label: "outbox")
            logger.logLevel = .critical
            outbox = HistoryOutbox(backend: backend, loop: loop, clock: clock, logger: logger, queue: queue,
                                   resumeBatch: resumeBatch, windowMs: windowMs)
        }

        /// The retry timer, once the outbox made it.
        var timer: ManualServiceTimer? { loop.timers.first }

        /// Waits out the armed retry (the clock moves to its due time), fires it and runs what follows.
        func retry() {
            guard let timer, let delay = timer.armed else { return }
            clock.nanos += delay
            timer.fire()
            loop.runJobs()
        }

        /// A draw of this node, recorded as started (its record is `running`).
        @discardableResult
        /// A draw started `ago` ms before the clock's now.
        func startDraw(_ n: Int, room: String = "quiz", ago: Double = 1_000) throws -> DrawPlan {
            let plan = Self.plan(n)
            let at = clock.epochMillis() - ago
            try store.insertStarted(NewDrawRecord(room: room, plan: plan, sources: RunningServer.sources,
                                                  createdAt: at - 500, startedAt: at))
            return plan
        }

        static func plan(_ n: Int) -> DrawPlan {
            let digits = String(n, radix: 16)
            return DrawPlan.make(drawId: String(repeating: "0", count: 32 - digits.count) + digits,
                                 entrants: RunningServer.players, seed: Seed(bytes: Array(repeating: UInt8(n), count: 32))!,
                                 schedule: .original)
        }
    }

    static func seconds(_ s: Double) -> UInt64 { UInt64(s * 1e9) }

    @Test func aLineIsRetriedWithBackoffUntilAcknowledgedAndOnlyThenSettled() throws {
        let f = try Fixture()
        let plan = try f.startDraw(1)
        f.shared.answer(Array(repeating: .failure(.unavailable("down")), count: 7))
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 0, final: false)
        f.loop.runJobs()
        var delays: [UInt64] = []
        for _ in 0..<20 where f.shared.keeps.count < 8 {
            #expect(try f.store.owed(limit: 10).map(\.drawId) == [plan.drawId], "owed until acknowledged")
            delays.append(f.timer?.armed ?? 0)
            f.retry()
        }
        // 0.5 s doubling, capped at 2 s (within the cluster's 10 s settle).
        #expect(delays == [0.5, 1, 2, 2, 2, 2, 2].map(Self.seconds))
        #expect(f.shared.keeps.count == 8)
        #expect(try f.store.owed(limit: 10) == [])
        #expect(f.timer?.armed == nil, "nothing left to retry")
    }

    @Test func aRetryFiredEarlySendsNothingAndWaitsTheRest() throws {
        let f = try Fixture()
        let plan = try f.startDraw(1)
        f.shared.answer([.failure(.unavailable("down"))])
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 0, final: true)
        f.loop.runJobs()
        f.clock.nanos += Self.seconds(0.2)
        f.timer?.fire()
        f.loop.runJobs()
        #expect(f.shared.keeps.count == 1, "not due yet")
        #expect(f.timer?.armed == Self.seconds(0.3))
        f.retry()
        #expect(f.shared.keeps.count == 2 && f.shared.keeps.last?.final == true)
        #expect(try f.store.owed(limit: 10) == [])
    }

    /// The draw ended while its `running` line was on its way: the end is sent after it, and
    /// the row is not settled under it.
    @Test func aDrawOwedAgainWhileBeingSentIsSentAgainNotSettled() throws {
        let f = try Fixture()
        let plan = try f.startDraw(2)
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 3, final: false)
        try f.store.finish(drawId: plan.drawId, ending: .finished, finishedAt: f.clock.epochMillis() - 500)
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 3, final: true)
        f.loop.runJobs()
        #expect(f.shared.keeps.map(\.final) == [false, true])
        #expect(f.shared.keeps.allSatisfy { $0.token == 3 })
        let line = try #require(f.shared.keeps.last?.summary)
        #expect(String(decoding: line, as: UTF8.self).contains(#""status":"finished""#))
        #expect(try f.store.owed(limit: 10) == [])
    }

    /// The line is read from the store when sent: a `running` row whose draw ended meanwhile (a
    /// restart resuming it) goes out as the end.
    @Test func aLineIsSentAsTheRecordIsWhenItIsSent() throws {
        let f = try Fixture()
        let plan = try f.startDraw(3)
        try f.store.owe(OwedHistoryLine(drawId: plan.drawId, room: "quiz", token: 0, final: false))
        try f.store.finish(drawId: plan.drawId, ending: .aborted(reason: "server_shutdown"), finishedAt: f.clock.epochMillis() - 500)
        f.outbox.resume()
        f.loop.runJobs()
        #expect(f.shared.keeps.map(\.final) == [true])
        #expect(try f.store.owed(limit: 10) == [])
    }

    @Test func aRefusedLineIsSettledAndNotRetried() throws {
        let f = try Fixture()
        let plan = try f.startDraw(4)
        f.shared.answer([.success(.refused)])
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 0, final: true)
        f.loop.runJobs()
        #expect(f.shared.keeps.count == 1)
        #expect(try f.store.owed(limit: 10) == [])
        #expect(f.timer?.armed == nil)
    }

    /// A node that died (or lost Redis) with lines owed sends them after its restart, past one
    /// resume batch.
    @Test func aRestartedNodeResumesWhatItsOutboxHolds() throws {
        let store = try SQLiteDrawStore(path: ":memory:")
        let before = try Fixture(store: store)
        let plans = try (1...5).map { try before.startDraw($0) }
        before.shared.answer(Array(repeating: .failure(.unavailable("down")), count: 5))
        for plan in plans { before.outbox.owe(drawId: plan.drawId, room: "quiz", token: 0, final: false) }
        before.loop.runJobs()
        #expect(try store.owed(limit: 10).count == 5, "all owed when the node dies")

        let after = try Fixture(store: store, resumeBatch: 2)
        after.outbox.resume()
        after.loop.runJobs()
        #expect(Set(after.shared.keeps.map(\.drawId)) == Set(plans.map(\.drawId)))
        #expect(after.shared.keeps.count == 5, "each once")
        #expect(try store.owed(limit: 10) == [])
    }

    @Test func aLineOfADrawNotInTheStoreIsDropped() throws {
        let f = try Fixture()
        f.outbox.owe(drawId: Fixture.plan(9).drawId, room: "quiz", token: 0, final: true)
        f.loop.runJobs()
        #expect(f.shared.keeps.isEmpty)
        #expect(try f.store.owed(limit: 10) == [])
    }

    // MARK: Takeovers

    /// The shared `running` record of another node's draw, as its node kept it at the start.
    static func sharedRunning(_ plan: DrawPlan) -> DrawRecord {
        DrawRecord(drawId: plan.drawId, room: "quiz", status: .running, createdAt: 1_700_000_000_000,
                   startedAt: 1_700_000_000_500, finishedAt: nil, sources: RunningServer.sources, entrants: plan.entrants,
                   warnings: plan.warnings, commitment: plan.commitment, entrantsHash: plan.entrantsHash,
                   schedule: plan.schedule, plannedRounds: [], plannedDrawn: nil, storedSeed: nil, failure: nil,
                   abortReason: nil)
    }

    @Test func aTakeoverKeepsTheInterruptedRecordWithItsToken() throws {
        let f = try Fixture()
        let plan = Fixture.plan(5), running = Self.sharedRunning(plan)
        f.shared.setBody(RecordMessages.record(running), drawId: plan.drawId)
        f.outbox.takeoverEnded(drawId: plan.drawId, room: "quiz", token: 9, seedHex: plan.seed.hex, roundsShown: 3,
                               endedAt: 1_700_000_002_000)
        f.loop.runJobs()
        let ended = try #require(running.interrupted(finishedAt: 1_700_000_002_000, seed: plan.seed, roundsShown: 3))
        #expect(f.shared.keeps == [FakeSharedRecords.Keep(drawId: plan.drawId, room: "quiz",
                                                          summary: RecordMessages.summary(DrawSummary(record: ended)),
                                                          token: 9, final: true)])
        #expect(try f.shared.body(drawId: plan.drawId) == RecordMessages.record(ended))
        #expect(try f.store.owed(limit: 10) == [])
    }

    /// The takeover's line is owed durably: a node that dies before Redis took it sends it after
    /// its restart (it does not have the draw in its own store).
    @Test func aTakeoverOwedWhenTheNodeDiedIsSentAfterItsRestart() throws {
        let store = try SQLiteDrawStore(path: ":memory:")
        let plan = Fixture.plan(6)
        let before = try Fixture(store: store)
        before.shared.setBody(RecordMessages.record(Self.sharedRunning(plan)), drawId: plan.drawId)
        before.shared.answer([.failure(.unavailable("down"))])
        before.outbox.takeoverEnded(drawId: plan.drawId, room: "quiz", token: 4, seedHex: plan.seed.hex, roundsShown: 2,
                                    endedAt: 1_700_000_003_000)
        before.loop.runJobs()
        #expect(try store.owed(limit: 10).first?.takeover?.roundsShown == 2)

        let after = try Fixture(store: store, shared: before.shared)
        after.outbox.resume()
        after.loop.runJobs()
        #expect(before.shared.keeps.map(\.token) == [4, 4])
        let kept = try #require(try before.shared.body(drawId: plan.drawId).flatMap(RecordBodyDecoder.decode))
        #expect(kept.status == .interrupted && kept.seed == plan.seed && kept.roundsShown == 2)
        #expect(try store.owed(limit: 10) == [])
    }

    /// No shared record to end (its node died before sharing it): tried `maxBodiesMissing`
    /// times, then given up.
    @Test func aTakeoverWithoutASharedRecordIsGivenUpAfterItsTries() throws {
        let f = try Fixture(queue: HistoryOutboxQueue(maxBodiesMissing: 3))
        let plan = Fixture.plan(7)
        f.outbox.takeoverEnded(drawId: plan.drawId, room: "quiz", token: 1, seedHex: plan.seed.hex, roundsShown: 1,
                               endedAt: 1_700_000_003_000)
        f.loop.runJobs()
        f.retry()
        #expect(try f.store.owed(limit: 10).count == 1, "still owed after two tries")
        f.retry()
        #expect(try f.store.owed(limit: 10) == [], "given up at the third")
        #expect(f.shared.keeps.isEmpty)
        #expect(f.timer?.armed == nil)
    }

    @Test func aTakeoverWhoseSeedDoesNotMatchIsDropped() throws {
        let f = try Fixture()
        let plan = Fixture.plan(8)
        f.shared.setBody(RecordMessages.record(Self.sharedRunning(plan)), drawId: plan.drawId)
        f.outbox.takeoverEnded(drawId: plan.drawId, room: "quiz", token: 1, seedHex: Fixture.plan(9).seed.hex,
                               roundsShown: 1, endedAt: 1_700_000_003_000)
        f.loop.runJobs()
        #expect(f.shared.keeps.isEmpty, "no seed but the committed one is ever revealed")
        #expect(try f.store.owed(limit: 10) == [])
    }

    // MARK: Redis came back

    @Test func whenRedisComesBackWhatWaitsIsSentAtOnce() throws {
        let f = try Fixture()
        let plan = try f.startDraw(1)
        f.shared.answer(Array(repeating: .failure(.unavailable("down")), count: 4))
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 0, final: true)
        f.loop.runJobs()
        for _ in 0..<3 { f.retry() }
        #expect(f.timer?.armed == Self.seconds(2), "deep in its backoff: 2 s at most, within the cluster's 10 s settle")
        f.shared.setBody([1], drawId: plan.drawId)   // Redis kept the draw: nothing to write back
        f.outbox.restore()
        f.loop.runJobs()
        #expect(f.shared.keeps.count == 5 && f.shared.keeps.last?.final == true, "sent without waiting the 4 s")
        #expect(try f.store.owed(limit: 10) == [])
    }

    /// Only the newest `limit` draws are asked about, and only those Redis lost are sent (token 0).
    @Test func afterRedisCameBackOnlyTheNewestLostDrawsAreWrittenBack() throws {
        let f = try Fixture()
        let plans = try (1...4).map { try f.startDraw($0) }
        f.shared.setBody([1], drawId: plans[2].drawId)   // Redis kept draw 3
        f.outbox.restore(limit: 3)
        f.loop.runJobs()
        #expect(f.shared.missingAsked == [[plans[3], plans[2], plans[1]].map(\.drawId)], "the newest 3, newest first")
        #expect(f.shared.keeps.map(\.drawId) == [plans[3].drawId, plans[1].drawId])
        #expect(f.shared.keeps.allSatisfy { $0.token == 0 && !$0.final }, "still running: not an end")
        #expect(try f.store.owed(limit: 10) == [])
    }

    /// Issue 44: a node away longer than the window still owes the end of a draw the others let
    /// go: it is not sent (it would come back at the top of its room's history), and its row goes.
    @Test func anEndOwedFromBeforeTheRetentionWindowIsNotSent() throws {
        let f = try Fixture(windowMs: 3_600_000)
        let plan = try f.startDraw(1, ago: 7_300_000)
        try f.store.finish(drawId: plan.drawId, ending: .finished, finishedAt: f.clock.epochMillis() - 7_200_000)
        f.outbox.owe(drawId: plan.drawId, room: "quiz", token: 3, final: true)
        f.loop.runJobs()
        #expect(f.shared.keeps.isEmpty)
        #expect(try f.store.owed(limit: 10) == [])
        #expect(f.outbox.owedLines == 0)
    }

    /// Issue 44: a draw older than the shared history's window was let go on purpose; writing it
    /// back would put it at the top of its room's history again.
    @Test func drawsOlderThanTheRetentionWindowAreNotWrittenBack() throws {
        let f = try Fixture(windowMs: 3_600_000)
        let old = try f.startDraw(1, ago: 7_200_000)
        let recent = try f.startDraw(2, ago: 60_000)
        f.outbox.restore()
        f.loop.runJobs()
        #expect(f.shared.missingAsked == [[recent.drawId]])
        #expect(f.shared.keeps.map(\.drawId) == [recent.drawId])
        #expect(!f.shared.keeps.contains { $0.drawId == old.drawId })
    }
}

/// The queue's rules alone.
@Suite struct HistoryOutboxQueueTests {
    static func line(_ id: String, final: Bool = false) -> OwedHistoryLine {
        OwedHistoryLine(drawId: id, room: "quiz", token: 0, final: final)
    }

    @Test func theDelayDoublesUpToItsCapAndNeverOverflows() {
        let queue = HistoryOutboxQueue(initialDelayNanos: 500, maxDelayNanos: 10_000)
        #expect((1...7).map { queue.delay(afterFailures: $0) } == [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000])
        #expect(queue.delay(afterFailures: 1_000) == 10_000)
        #expect(HistoryOutboxQueue(initialDelayNanos: UInt64.max / 2, maxDelayNanos: UInt64.max).delay(afterFailures: 3) == UInt64.max)
    }

    @Test func sendsThatFailTogetherCountAsOneFailure() {
        var queue = HistoryOutboxQueue(initialDelayNanos: 100, maxDelayNanos: 1_000)
        queue.owe(Self.line("a"))
        queue.owe(Self.line("b"))
        #expect(queue.takeDue(now: 0).map(\.drawId) == ["a", "b"])
        queue.failed("a", now: 5)
        queue.failed("b", now: 6)
        #expect(queue.failures == 1 && queue.pausedUntil == 105)
        #expect(queue.takeDue(now: 104).isEmpty)
        #expect(queue.nextDue(now: 104) == 105)
        #expect(queue.takeDue(now: 105).map(\.drawId) == ["a", "b"])
        #expect(queue.acknowledged("a") == .settle)
        #expect(queue.failures == 0 && queue.pausedUntil == 0)
    }

    @Test func noMoreThanMaxInFlightAreSentAtOnce() {
        var queue = HistoryOutboxQueue(maxInFlight: 3)
        for n in 0..<5 { queue.owe(Self.line("d\(n)")) }
        #expect(queue.takeDue(now: 0).map(\.drawId) == ["d0", "d1", "d2"])
        #expect(queue.nextDue(now: 0) == nil, "the sends in flight call again")
        #expect(queue.acknowledged("d1") == .settle)
        #expect(queue.takeDue(now: 0).map(\.drawId) == ["d3"])
        #expect(queue.inFlight == 3)
    }

    @Test func aLineOwedAgainWhileSendingIsMergedAndSentAgain() {
        var queue = HistoryOutboxQueue()
        queue.owe(OwedHistoryLine(drawId: "a", room: "quiz", token: 2, final: false))
        _ = queue.takeDue(now: 0)
        queue.owe(OwedHistoryLine(drawId: "a", room: "quiz", token: 1, final: true))
        #expect(queue.takeDue(now: 0).isEmpty, "one send per draw at a time")
        #expect(queue.acknowledged("a") == .sendAgain)
        #expect(queue.takeDue(now: 0) == [OwedHistoryLine(drawId: "a", room: "quiz", token: 2, final: true)])
        #expect(queue.acknowledged("a") == .settle)
        #expect(queue.isEmpty)
    }
}
