import DrawCore

/// What a runner does when one of its writes comes back from the storage thread.
/// Service thread only (the result arrives through the inbox).
extension DrawRunner {
    /// `write` returned; `error` is `nil` when it is on disk.
    ///
    /// - The plan is on disk: publish `started` and time the rounds. It is not: publish `failed`
    ///   (`storage_failure`); the commitment was never shown, so nothing is revealed.
    /// - The `started` stamp or a round's stamp failed while the draw runs: abort it (`aborted`,
    ///   `storage_failure`).
    ///   A draw is never carried on without its record.
    /// - The result is on disk: publish `finished`. It is not: abort instead, so the wire never
    ///   announces a result the history does not hold.
    /// - Anything else is a result nobody waits for (an abort's or a failure's record, or one for
    ///   a draw that has ended meanwhile): a failure is logged and counted, nothing more.
    func recorded(_ write: DrawWrite, error: StorageError?) {
        answered()
        if let error {
            deps.metrics.storageFailed(operation: write.operation)
            deps.logger.error("could not record the draw", metadata: [
                "room": "\(room)", "drawId": "\(write.drawId)", "operation": "\(write.operation)",
                "error": "\(error.description)",
            ])
        }
        switch (write, phase) {
        case (.started, .recordingStart(let r)) where r.plan.drawId == write.drawId:
            if error == nil {
                begin(r)
            } else {
                fail(.storageFailure, createdAt: r.createdAt)
            }
        case (.startedAt, .running(let r)) where r.plan.drawId == write.drawId && error != nil,
             (.round, .running(let r)) where r.plan.drawId == write.drawId && error != nil:
            end(r, reason: Self.storageFailureReason)
        case (.finish(_, .finished, _, _), .recordingResult(let r, let finishedAt, let since))
            where r.plan.drawId == write.drawId:
            if error == nil {
                let now = deps.clock.monotonicNanos()
                deps.metrics.resultWriteDelay(nanos: now > since ? now - since : 0)
                announce(r, finishedAt: finishedAt)
            } else {
                end(r, reason: Self.storageFailureReason)
            }
        default:
            break
        }
    }
}
