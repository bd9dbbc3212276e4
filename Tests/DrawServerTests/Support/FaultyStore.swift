import DrawCore
import Foundation

/// A real store whose chosen writes fail once, as a full disk or a lock held too long makes them
/// fail: with `StorageError.writeFailed` and nothing written. Everything else goes through.
/// `isFull` makes every write fail until it is cleared, as a disk that filled up and was freed.
final class FaultyStore: DrawRecordStore, @unchecked Sendable {
    enum Fault: Hashable, Sendable {
        /// The next `insertStarted`.
        case start
        /// The next `recordRound` of this round number.
        case round(Int)
        /// The next `finish(.finished)`.
        case finish
        /// The next group (`inOneTransaction`): its writes are made, then it fails as a whole, so
        /// none of them is kept.
        case group
    }

    // `faults` is guarded by `lock`; `inner` is itself thread-safe.
    private let inner: any DrawRecordStore
    private let lock = NSLock()
    private var faults: Set<Fault>
    private var full = false
    /// Groups that committed (guarded by `lock`).
    private var committedGroups = 0

    init(_ inner: any DrawRecordStore, failing faults: Set<Fault>) {
        self.inner = inner
        self.faults = faults
    }

    /// While true, every write fails as on a full disk; reads still work.
    var isFull: Bool {
        get { lock.withLock { full } }
        set { lock.withLock { full = newValue } }
    }

    /// How long every history read (`list`, `record`) takes, as a store on a stalled disk or a
    /// slow Redis does (guarded by `lock`).
    var readDelay: TimeInterval {
        get { lock.withLock { delay } }
        set { lock.withLock { delay = newValue } }
    }
    private var delay: TimeInterval = 0

    /// How many groups have committed so far.
    var groupsCommitted: Int { lock.withLock { committedGroups } }

    /// Adds a fault (for the next matching write).
    func inject(_ fault: Fault) { lock.withLock { _ = faults.insert(fault) } }

    private func check(_ fault: Fault?, _ operation: String) throws(StorageError) {
        let (fails, isFull) = lock.withLock { (fault.map { faults.remove($0) != nil } ?? false, full) }
        if isFull { throw .writeFailed(path: "faulty.sqlite", operation: operation, reason: "database or disk is full (injected)") }
        if fails { throw .writeFailed(path: "faulty.sqlite", operation: operation, reason: "injected failure") }
    }

    func inOneTransaction(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        let failsAfterBody = lock.withLock { faults.remove(.group) != nil }
        try inner.inOneTransaction { () throws(StorageError) in
            try body()
            if failsAfterBody {
                throw .writeFailed(path: "faulty.sqlite", operation: "commit a group of writes", reason: "injected failure")
            }
        }
        lock.withLock { committedGroups += 1 }
    }

    func insertStarted(_ record: NewDrawRecord) throws(StorageError) {
        try check(.start, "record the start of draw \(record.drawId)")
        try inner.insertStarted(record)
    }

    func stampStarted(drawId: String, startedAt: Double) throws(StorageError) {
        try check(nil, "record when draw \(drawId) started")
        try inner.stampStarted(drawId: drawId, startedAt: startedAt)
    }

    func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError) {
        try check(.round(round), "record round \(round) of draw \(drawId)")
        try inner.recordRound(drawId: drawId, round: round, sentAt: sentAt)
    }

    func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError) {
        try check(ending == .finished ? .finish : nil, "record the end of draw \(drawId)")
        try inner.finish(drawId: drawId, ending: ending, finishedAt: finishedAt)
    }

    func recordBeacon(_ plan: DrawPlan) throws(StorageError) {
        try check(nil, "record the beacon round of draw \(plan.drawId)")
        try inner.recordBeacon(plan)
    }

    func insertFailed(_ record: FailedDrawRecord) throws(StorageError) {
        try check(nil, "record the failure of draw \(record.drawId)")
        try inner.insertFailed(record)
    }

    func markRunningInterrupted(at: Double) throws(StorageError) -> Int { try inner.markRunningInterrupted(at: at) }

    func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage {
        Thread.sleep(forTimeInterval: readDelay) // the slow read a test asked for
        return try inner.list(room: room, page: page)
    }

    func record(id: String) throws(StorageError) -> DrawRecord? {
        Thread.sleep(forTimeInterval: readDelay)
        return try inner.record(id: id)
    }

    func close() { inner.close() }
}
