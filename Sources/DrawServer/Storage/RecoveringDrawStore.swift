import DrawCore
import DrawTransport
import Foundation

/// The draw store as the server uses it: the real store, plus the aborts viewers were told about
/// that the store could not take yet.
///
/// Why: when the disk fills up mid-draw, the round's stamp fails and the draw is aborted, rightly,
/// with its seed. But the abort's own write fails too, so the record stays `running`, without a
/// seed, for as long as the disk is full, and for good if nobody restarts the server. Instead,
/// an abort that fails with a write failure is kept here (`pendingAborts`):
/// - reads serve the record as aborted, seed revealed, exactly as the store will have it
///   (`DrawRecord.aborted(reason:finishedAt:seed:)`), so the history never says `running` after
///   viewers were told `aborted`;
/// - `retryPendingAborts()` writes it again; the storage thread calls it after every group that
///   committed (the store takes writes again) and about once a second while it is idle.
///
/// How many can be pending: only draws whose start was recorded can be aborted, and each room runs
/// one draw at a time, so while the store refuses writes at most one per room is added (a new
/// draw's start fails first). They go once the store can be written again.
///
/// Threading: the server calls it on its storage thread only (threading rule 5 on
/// `LiveDrawServer`), and debug builds check so (`owner`, claimed by `StorageThread`); `close()`
/// and `pendingAborts` may come from any thread. `@unchecked Sendable`: `pending` is guarded by
/// `lock`; `inner` is thread-safe itself.
final class RecoveringDrawStore: DrawRecordStore, @unchecked Sendable {
    /// An abort broadcast to viewers whose record is not on disk yet.
    struct PendingAbort: Sendable, Hashable {
        let reason: String
        let finishedAt: Double
        let seed: Seed
    }

    let inner: any DrawRecordStore
    /// The storage thread, checked by every store call in debug builds: a wrong hop fails a test
    /// instead of blocking the service thread on the disk.
    let owner = ThreadOwner(name: "storage")
    private let lock = NSLock()
    private var pending: [String: PendingAbort] = [:]

    init(_ inner: any DrawRecordStore) {
        self.inner = inner
    }

    /// Ends a running draw like `finish`. An abort that fails with a write failure is kept, served
    /// from memory, and written again later; the error is still thrown (the write did fail).
    func end(drawId: String, ending: DrawEnding, finishedAt: Double, seed: Seed) throws(StorageError) {
        owner.check()
        do {
            try inner.finish(drawId: drawId, ending: ending, finishedAt: finishedAt)
            lock.withLock { _ = pending.removeValue(forKey: drawId) }
        } catch {
            if case .aborted(let reason) = ending, Self.mayPass(error) {
                let abort = PendingAbort(reason: reason, finishedAt: finishedAt, seed: seed)
                lock.withLock { pending[drawId] = abort }
            }
            throw error
        }
    }

    /// Aborts whose record is not written yet.
    var pendingAborts: [String: PendingAbort] { lock.withLock { pending } }

    /// Writes every pending abort again, each in its own transaction (this is the rare path).
    /// Returns how many are still pending.
    @discardableResult
    func retryPendingAborts() -> Int {
        owner.check()
        for (drawId, abort) in pendingAborts {
            do throws(StorageError) {
                try end(drawId: drawId, ending: .aborted(reason: abort.reason), finishedAt: abort.finishedAt,
                        seed: abort.seed)
            } catch {
                // Anything but a write failure will not pass by trying again (the record is gone,
                // or was ended meanwhile, say by a restart's recovery): stop serving it from here.
                if !Self.mayPass(error) { lock.withLock { _ = pending.removeValue(forKey: drawId) } }
            }
        }
        return lock.withLock { pending.count }
    }

    /// Failures that trying again later may get past: the disk or the lock, not the record.
    private static func mayPass(_ error: StorageError) -> Bool {
        switch error {
        case .writeFailed, .locked: return true
        default: return false
        }
    }

    // MARK: DrawRecordStore

    func insertStarted(_ record: NewDrawRecord) throws(StorageError) {
        owner.check()
        try inner.insertStarted(record)
    }

    func stampStarted(drawId: String, startedAt: Double) throws(StorageError) {
        owner.check()
        try inner.stampStarted(drawId: drawId, startedAt: startedAt)
    }

    func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError) {
        owner.check()
        try inner.recordRound(drawId: drawId, round: round, sentAt: sentAt)
    }

    func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError) {
        owner.check()
        try inner.finish(drawId: drawId, ending: ending, finishedAt: finishedAt)
    }

    func recordBeacon(_ plan: DrawPlan) throws(StorageError) {
        owner.check()
        try inner.recordBeacon(plan)
    }

    func insertFailed(_ record: FailedDrawRecord) throws(StorageError) {
        owner.check()
        try inner.insertFailed(record)
    }

    func markRunningInterrupted(at: Double) throws(StorageError) -> Int {
        owner.check()
        return try inner.markRunningInterrupted(at: at)
    }

    func inOneTransaction(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        owner.check()
        try inner.inOneTransaction(body)
    }

    /// The stored page, with each pending abort shown as aborted.
    func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage {
        owner.check()
        let stored = try inner.list(room: room, page: page)
        let aborts = pendingAborts
        guard !aborts.isEmpty else { return stored }
        return DrawPage(draws: stored.draws.map { summary in
            aborts[summary.drawId].map { summary.aborted(finishedAt: $0.finishedAt) } ?? summary
        }, next: stored.next)
    }

    /// The stored record, or, for a pending abort, the record as it will be once written.
    func record(id: String) throws(StorageError) -> DrawRecord? {
        owner.check()
        guard let stored = try inner.record(id: id) else { return nil }
        guard let abort = lock.withLock({ pending[id] }) else { return stored }
        return stored.aborted(reason: abort.reason, finishedAt: abort.finishedAt, seed: abort.seed) ?? stored
    }

    func close() { inner.close() }
}
