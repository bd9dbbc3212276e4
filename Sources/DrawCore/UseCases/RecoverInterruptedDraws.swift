/// Use case: startup recovery of the draw records a dead process left behind.
///
/// A server that dies mid-draw (crash, `kill -9`, power cut) leaves its draw `running` in the
/// store, with the rounds it had shown. The next server must close those records before it
/// serves anything: it marks them `interrupted`, which reveals their seeds (the commitment was
/// public, so the audience can now check the rounds they saw), and no later write can touch them.
///
/// Run it once, after opening the store and before creating the server: the store's one-process
/// lock guarantees that no other live server's draws are among them.
public struct RecoverInterruptedDraws: Sendable {
    private let store: any DrawRecordStore
    private let clock: any DrawClock
    private let outbox: (any HistoryOutboxStore)?

    /// - Parameter outbox: in cluster mode, the node's history outbox (usually `store` itself):
    ///   the reconciled records are then owed to the shared history, which still says `running`
    ///   for them, in the same transaction as the marking.
    public init(store: any DrawRecordStore, clock: any DrawClock, outbox: (any HistoryOutboxStore)? = nil) {
        self.store = store
        self.clock = clock
        self.outbox = outbox
    }

    /// Marks every `running` record `interrupted` as of now. Returns how many there were (for
    /// the startup log). A failure is a `StorageError`: the server must not start then.
    @discardableResult
    public func execute() throws(StorageError) -> Int {
        if let outbox { return try outbox.markRunningInterruptedOwingLines(at: clock.epochMillis()) }
        return try store.markRunningInterrupted(at: clock.epochMillis())
    }
}
