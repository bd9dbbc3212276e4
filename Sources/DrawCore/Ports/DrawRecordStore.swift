/// Where draws are kept for good: every attempt, its plan, the rounds shown and how it ended.
///
/// Synchronous on purpose: an SQLite write blocks on the disk, so the server calls the store
/// from its own storage thread (never the libwebsockets service thread) and waits there.
/// Implementations must be safe to call from several threads at once; they serialise internally.
///
/// Call order for one draw: `insertStarted` (before `started` is broadcast) → `stampStarted` (once
/// it was) → `recordRound` for each round shown → `finish`. A draw that fails before planning gets `insertFailed` only. At startup,
/// before serving, `markRunningInterrupted` closes the records a dead process left `running`.
///
/// Reads never expose more than viewers have seen: see `DrawRecord` and `DrawSummary`.
public protocol DrawRecordStore: Sendable {
    /// Records a planned draw as `running`, with its seed and every planned pick, atomically.
    /// Throws `duplicateDraw` if the id is taken, or a write failure: the server must then not
    /// publish the commitment, because the seed behind it would not survive a crash.
    func insertStarted(_ record: NewDrawRecord) throws(StorageError)

    /// Replaces the `startedAt` of a running draw with the time `started` actually went out (epoch
    /// ms): `insertStarted` runs before that moment, so it can only store when the draw was planned.
    /// Throws `unknownDraw`, `notRunning`, or a write failure.
    func stampStarted(drawId: String, startedAt: Double) throws(StorageError)

    /// Stamps round `round` (1-based) of a running draw as shown at `sentAt` (epoch ms).
    /// Throws `unknownDraw`, `notRunning`, `unknownRound`, or a write failure.
    func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError)

    /// Ends a running draw as `finished` or `aborted` at `finishedAt` (epoch ms); its seed becomes
    /// readable. Throws `unknownDraw`, `notRunning`, or a write failure.
    func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError)

    /// Records the fetched beacon round of a running beacon draw and the picks it gives (`plan`
    /// is resolved: `DrawPlan.resolved(with:)`). Throws `unknownDraw`, `notRunning`, or a write
    /// failure.
    func recordBeacon(_ plan: DrawPlan) throws(StorageError)

    /// Records a draw that failed before it was planned, as `failed`.
    func insertFailed(_ record: FailedDrawRecord) throws(StorageError)

    /// Group commit: runs `body`, which makes several of the write calls above, as one
    /// transaction, so they all share one commit and one disk sync.
    ///
    /// Inside, each write still succeeds or fails on its own: a failed one leaves nothing, the
    /// others stay. None of them is durable before this returns, though. If this throws (the
    /// commit failed, or `body` threw), none of them was kept, whatever each returned, and the
    /// caller must make them again, alone, to learn which can be kept. Calls from other threads
    /// wait until it returns.
    func inOneTransaction(_ body: () throws(StorageError) -> Void) throws(StorageError)

    /// Startup recovery: every `running` record becomes `interrupted` at `at` (epoch ms), which
    /// reveals its seed; its recorded rounds stay. Returns how many records changed.
    @discardableResult
    func markRunningInterrupted(at: Double) throws(StorageError) -> Int

    /// One page of `room`'s draws, newest first.
    func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage

    /// One draw's record, or `nil` if the id is unknown.
    func record(id: String) throws(StorageError) -> DrawRecord?

    /// Releases the database (and its one-process lock); later calls throw `closed`. Idempotent.
    /// Waits for a call in progress on another thread to finish first.
    func close()
}
