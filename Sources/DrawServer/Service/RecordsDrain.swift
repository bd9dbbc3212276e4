import DrawCore

/// What a node owes the cluster's shared history (`HistoryOutbox`), as the shutdown sees it.
protocol OwedHistory: AnyObject {
    /// How many draws' lines are owed now.
    var owedLines: Int { get }
    /// Calls `done` on the service thread once nothing is owed (at once when nothing is now),
    /// every settled line's row deletion already handed to the draw store's thread.
    func whenSettled(_ done: @escaping () -> Void)
}

/// Shutdown's records phase (`ShutdownCoordinator`): everything the stop owes the disk and the
/// cluster is done before the clients are closed and the store is closed.
///
/// Why three steps, in this order: a write's result comes back to the service thread, and only
/// there does it become more work. The end of a draw on disk owes its history line, whose send
/// reads the store, waits for Redis, then deletes its row: jobs handed to the storage thread
/// after any barrier queued with the abort writes. One barrier alone let the loop end with them
/// still queued ("closing the draw store with writes still queued"), and the end's row, or its
/// acknowledgement, lost (issue 36). So:
/// 1. a barrier behind every write submitted so far (the aborts' included); their results, and
///    the lines they owe, are handled before it comes back (one serial thread, one inbox);
/// 2. the history outbox empty: every line acknowledged by Redis;
/// 3. a barrier behind the rows' deletions (and anything else those steps queued).
/// All of it within one bound (`graceNanos`): past it the stop goes on, and says what is left.
///
/// Service thread only.
final class RecordsDrain {
    /// How the phase ended.
    enum Outcome: Equatable {
        case done
        /// The bound passed: jobs still queued on the draw store's thread, and lines still owed.
        case timedOut(queued: Int, owedLines: Int)
    }

    private let storage: ServerStorage
    private let history: (any OwedHistory)?
    private let graceNanos: UInt64
    private var timer: (any ServiceTimer)?
    private var done: ((Outcome) -> Void)?

    init(loop: any RoomLoop, storage: ServerStorage, history: (any OwedHistory)?, graceNanos: UInt64) {
        self.storage = storage
        self.history = history
        self.graceNanos = graceNanos
        timer = loop.makeTimer { [weak self] in self?.timedOut() }
    }

    /// Starts the phase; `done` is called once, on the service thread. False, with `done` never
    /// called, when there is nothing to wait for (no store).
    func start(then done: @escaping (Outcome) -> Void) -> Bool {
        self.done = done
        guard storage.awaitDrain(then: { [weak self] in self?.writesDone() }) else {
            self.done = nil
            return false
        }
        timer?.schedule(afterNanos: graceNanos)
        return true
    }

    /// Step 2: the writes are on disk, the lines they owe are queued.
    private func writesDone() {
        guard done != nil else { return }
        guard let history else { return linesSettled() }
        history.whenSettled { [weak self] in self?.linesSettled() }
    }

    /// Step 3: the rows of the acknowledged lines are being deleted.
    private func linesSettled() {
        guard done != nil else { return }
        if !storage.awaitDrain(then: { [weak self] in self?.finish(.done) }) { finish(.done) }
    }

    private func timedOut() {
        finish(.timedOut(queued: storage.pending, owedLines: history?.owedLines ?? 0))
    }

    private func finish(_ outcome: Outcome) {
        guard let done else { return }
        self.done = nil
        timer?.cancel()   // kept, not freed: this may be its own callback
        done(outcome)
    }
}
