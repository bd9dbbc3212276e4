/// Why a call to the cluster's shared state (`RoomLease`, `RoomEventChannel`) failed, in one line
/// an operator can act on. The server answers these with 503: the shared store is away, the node
/// keeps serving what it can, and the call may be tried again later.
public enum CoordinationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The shared store cannot be reached now (down, unreachable, timed out, backing off).
    case unavailable(String)
    /// The shared store answered, but not as expected (an error reply, a wrong type).
    case unexpectedReply(String)
    /// The shared store answered but is full (Redis' `-OOM` reply: `maxmemory` reached under
    /// `noeviction`): it is there, reads work, and no write does until an operator frees memory.
    /// Apart from `unavailable` so that "full" is answered and counted as such, not as "away".
    case full(String)
    /// The arguments were refused before anything was sent (an empty owner, a TTL below 1 ms).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .unavailable(let detail): "cluster store unavailable: \(detail)"
        case .unexpectedReply(let detail): "unexpected answer from the cluster store: \(detail)"
        case .invalidArgument(let detail): "invalid argument: \(detail)"
        case .full(let detail): "cluster store full: \(detail)"
        }
    }
}
