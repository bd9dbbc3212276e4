import DrawCore
import DrawData
import DrawPresentation
@testable import DrawServer
import Logging
import Testing

/// The archiver (`RecordsArchiver`, issue 44) without sockets or Redis: a scripted ends stream,
/// a real SQLite store (in memory) as the archive, the hops inline, answers through a
/// `FakeLoop`'s inbox, a manual clock for the pass interval.
@Suite struct RecordsArchiverTests {
    typealias Clock = DrawRunnerPacingTests.ManualClock

    struct Fixture {
        let loop = FakeLoop()
        let clock = Clock()
        let shared = FakeSharedRecords()
        let archive: SQLiteDrawStore
        let archiver: RecordsArchiver
        var batches: [Int] { batchesBox.value }
        private let batchesBox = Box<[Int]>([])

        init(batch: Int = 2) throws {
            let archive = try SQLiteDrawStore(path: ":memory:")
            self.archive = archive
            let backend = RecordsArchiver.Backend(records: shared, archive: archive,
                                                  onStore: { job in job(); return true }, onShared: { job in job(); return true })
            var logger = Logger(label: "archiver")
            logger.logLevel = .critical
            archiver = RecordsArchiver(backend: backend, loop: loop, clock: clock, logger: logger, batch: batch)
            let box = batchesBox
            archiver.onArchived = { box.value.append($0) }
        }

        /// One pass: the tick, then every answer it leads to.
        func pass() {
            archiver.tick()
            for _ in 0..<6 { loop.runJobs() }
        }

        /// The pass interval goes by.
        func wait() { clock.nanos += RecordsArchiver.interval }
    }

    final class Box<T> {
        var value: T
        init(_ value: T) { self.value = value }
    }

    static func id(_ n: Int) -> String { String(repeating: "0", count: 31) + String(n, radix: 16) }
    static func line(_ n: Int) -> [UInt8] { Array("{\"n\":\(n)}".utf8) }
    static func body(_ n: Int) -> [UInt8] { Array("{\"drawId\":\"\(id(n))\"}".utf8) }

    @Test func everyEndIsArchivedInOrderBatchByBatchAndTheCursorKept() throws {
        let f = try Fixture(batch: 2)
        for n in 1...5 { f.shared.ended(drawId: Self.id(n), room: "quiz", position: Int64(n), line: Self.line(n), body: Self.body(n)) }
        f.pass()   // reads the cursor (none), then 2 ends: a full batch, so the next pass is due at once
        f.pass()
        f.pass()
        #expect(f.batches == [2, 2, 1])
        for n in 1...5 { #expect(try f.archive.archivedBody(drawId: Self.id(n)) == Self.body(n)) }
        #expect(try f.archive.archivedLines(room: "quiz", before: nil, limit: 10).map(\.position) == [5, 4, 3, 2, 1])
        #expect(try f.archive.archiveCursor() == "4")
        // Nothing new: no pass before the interval, then nothing archived.
        f.shared.ended(drawId: Self.id(6), room: "quiz", position: 6, line: Self.line(6), body: Self.body(6))
        f.pass()
        #expect(try f.archive.archivedBody(drawId: Self.id(6)) == nil, "not before the interval")
        f.wait()
        f.pass()
        #expect(try f.archive.archivedBody(drawId: Self.id(6)) == Self.body(6))
    }

    @Test func aRestartedArchiverGoesOnFromItsCursor() throws {
        let f = try Fixture(batch: 10)
        for n in 1...2 { f.shared.ended(drawId: Self.id(n), room: "quiz", position: Int64(n), line: Self.line(n), body: Self.body(n)) }
        try f.archive.archive([], cursor: "0")   // an earlier run read the first end
        f.pass()
        #expect(f.batches == [1])
        #expect(try f.archive.archivedBody(drawId: Self.id(1)) == nil, "read before: not again")
        #expect(try f.archive.archivedBody(drawId: Self.id(2)) == Self.body(2))
    }

    @Test func aRedisThatFailsIsRetriedAtTheNextPassAndLosesNothing() throws {
        let f = try Fixture(batch: 10)
        f.shared.ended(drawId: Self.id(1), room: "quiz", position: 1, line: Self.line(1), body: Self.body(1))
        f.shared.failEnds(.unavailable("connection refused"))
        f.pass()
        #expect(try f.archive.archiveCursor() == nil)
        f.shared.failEnds(nil)
        f.pass()
        #expect(try f.archive.archivedBody(drawId: Self.id(1)) == nil, "the failed pass waits out the interval")
        f.wait()
        f.pass()
        #expect(try f.archive.archivedBody(drawId: Self.id(1)) == Self.body(1))
    }

    @Test func aRecordRedisLetGoIsSkippedAndAGapIsReportedOnce() throws {
        let f = try Fixture(batch: 10)
        f.shared.ended(drawId: Self.id(1), room: "quiz", position: 1, line: Self.line(1), body: Self.body(1))
        f.shared.setBody(nil, drawId: Self.id(1))
        f.shared.ended(drawId: Self.id(2), room: "quiz", position: 2, line: Self.line(2), body: Self.body(2))
        f.shared.reportGap()
        f.pass()
        #expect(try f.archive.archivedBody(drawId: Self.id(1)) == nil)
        #expect(try f.archive.archivedBody(drawId: Self.id(2)) == Self.body(2))
        #expect(try f.archive.archiveCursor() == "1")
        #expect(f.archiver.gapReported)
    }

    /// The room's cap let the line go before this node read it: the line is made from the record
    /// as the running node made it.
    @Test func aLineTheCapLetGoIsMadeFromTheRecord() throws {
        let store = try SQLiteDrawStore(path: ":memory:")
        let plan = HistoryOutboxTests.Fixture.plan(7)
        try store.insertStarted(NewDrawRecord(room: "quiz", plan: plan, sources: RunningServer.sources,
                                              createdAt: 1_700_000_000_000, startedAt: 1_700_000_000_500))
        let record = try #require(try store.record(id: plan.drawId))
        let draw = ArchivedDraw(drawId: plan.drawId, room: "quiz", position: 3, summary: [],
                                body: RecordMessages.sharedRecord(record))
        let lined = try #require(RecordsArchiver.withLine(draw))
        #expect(lined.summary == RecordMessages.summary(DrawSummary(record: record)))
        let broken = ArchivedDraw(drawId: plan.drawId, room: "quiz", position: 3, summary: [],
                                  body: SharedRecordBody(whole: Array("not a record".utf8)))
        #expect(RecordsArchiver.withLine(broken) == nil)
    }
}
