/// How the server ends a running draw in the store. (`interrupted` is not here: only startup
/// recovery sets it, through `DrawRecordStore.markRunningInterrupted(at:)`.)
public enum DrawEnding: Sendable, Hashable {
    /// Every round was shown and the result announced.
    case finished
    /// Stopped before its end; `reason` is the `aborted` message's reason (e.g. `server_shutdown`).
    case aborted(reason: String)

    /// The status the record takes.
    public var status: DrawStatus {
        switch self {
        case .finished: return .finished
        case .aborted: return .aborted
        }
    }
}
