/// A node's durable outbox of shared history lines (cluster mode, docs/SCALING.md "One
/// history"): a row per draw whose line the node owes the cluster, written before the line is
/// sent and deleted only once the shared store acknowledged it, so a node that dies or loses
/// Redis meanwhile still owes it at its next start.
///
/// Synchronous and blocking like `DrawRecordStore` (the same SQLite file): call it from the
/// server's storage thread.
public protocol HistoryOutboxStore: Sendable {
    /// Records that `line` is owed; a draw already owed keeps one row (`OwedHistoryLine.merged`).
    func owe(_ line: OwedHistoryLine) throws(StorageError)

    /// The lines owed, oldest first, at most `limit`.
    func owed(limit: Int) throws(StorageError) -> [OwedHistoryLine]

    /// The line of `drawId` was acknowledged (or refused for good): its row goes.
    func settle(drawId: String) throws(StorageError)

    /// Startup recovery in cluster mode: `DrawRecordStore.markRunningInterrupted`, and in the
    /// same transaction each of those draws owed as an end with token 0 ("reconciled, no lease").
    @discardableResult
    func markRunningInterruptedOwingLines(at: Double) throws(StorageError) -> Int

    /// The newest `limit` draws of this node's store (any room) that ended (or, still running,
    /// started) at or after `since` (epoch ms), newest first: what it writes back after the
    /// shared history was lost. Older ones the shared history let go on purpose (issue 44).
    func newestDraws(limit: Int, since: Double) throws(StorageError) -> [(drawId: String, room: String)]
}
