import DrawCore
import Foundation

/// A real store whose chosen writes fail once, as a full disk or a lock held too long makes them
/// fail: with `StorageError.writeFailed` and nothing written. Everything else goes through.
final class FaultyStore: DrawRecordStore, @unchecked Sendable {
    enum Fault: Hashable, Sendable {
        /// The next `insertStarted`.
        case start
        /// The next `recordRound` of this round number.
        case round(Int)
        /// The next `finish(.finished)`.
        case finish
    }

    // `faults` is guarded by `lock`; `inner` is itself thread-safe.
    private let inner: any DrawRecordStore
    private let lock = NSLock()
    private var faults: Set<Fault>

    init(_ inner: any DrawRecordStore, failing faults: Set<Fault>) {
        self.inner = inner
        self.faults = faults
    }

    private func check(_ fault: Fault, _ operation: String) throws(StorageError) {
        let fails = lock.withLock { faults.remove(fault) != nil }
        if fails { throw .writeFailed(path: "faulty.sqlite", operation: operation, reason: "injected failure") }
    }

    func insertStarted(_ record: NewDrawRecord) throws(StorageError) {
        try check(.start, "record the start of draw \(record.drawId)")
        try inner.insertStarted(record)
    }

    func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError) {
        try check(.round(round), "record round \(round) of draw \(drawId)")
        try inner.recordRound(drawId: drawId, round: round, sentAt: sentAt)
    }

    func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError) {
        if ending == .finished { try check(.finish, "record the end of draw \(drawId)") }
        try inner.finish(drawId: drawId, ending: ending, finishedAt: finishedAt)
    }

    func insertFailed(_ record: FailedDrawRecord) throws(StorageError) { try inner.insertFailed(record) }

    func markRunningInterrupted(at: Double) throws(StorageError) -> Int { try inner.markRunningInterrupted(at: at) }

    func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage { try inner.list(room: room, page: page) }

    func record(id: String) throws(StorageError) -> DrawRecord? { try inner.record(id: id) }

    func close() { inner.close() }
}
