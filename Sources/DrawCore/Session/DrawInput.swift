/// What can happen to a room's draw: everything `DrawSession` reacts to. Each input carries the
/// time it happened at, read by whoever feeds the session.
public enum DrawInput: Sendable {
    /// The host asked for a draw (the host key was checked by the caller).
    case startRequested(at: DrawInstant)
    /// The players of attempt `attempt` (from `DrawEffect.loadPlayers`) arrived, or could not be
    /// loaded.
    case playersLoaded(attempt: UInt64, Result<MergeResult, DrawError>, at: DrawInstant)
    /// A write from `DrawEffect.write` returned: `error == nil` means it is durable.
    case written(DrawWrite, error: StorageError?, at: DrawInstant)
    /// The wake-up asked for by `DrawEffect.wake` is due.
    case timerDue(at: DrawInstant)
    /// Stop the draw, whatever it is doing, for `reason` (the `aborted` message's reason).
    case abort(reason: String, at: DrawInstant)
    /// The server is shutting down: abort with `server_shutdown`, and refuse every later start.
    case shutdown(at: DrawInstant)
}

extension DrawInput {
    /// When it happened.
    public var at: DrawInstant {
        switch self {
        case .startRequested(let t), .playersLoaded(_, _, let t), .written(_, _, let t), .timerDue(let t),
             .abort(_, let t), .shutdown(let t):
            return t
        }
    }
}
