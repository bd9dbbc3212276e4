/// Why a beacon round could not be had (`DrawInput.beaconFetched`). Every case fails the draw
/// the same way once its wait is over (`beacon_unavailable`); the case is for the log.
public enum BeaconFetchError: Error, Sendable, Hashable {
    /// No answer: connection refused, timeout, an HTTP error (a relay answers 404 or 425 for a
    /// round not published yet).
    case unreachable(String)
    /// An answer that is not a drand round: not JSON, fields missing or not hex.
    case malformed(String)

    /// One line for the log.
    public var message: String {
        switch self {
        case .unreachable(let why): return "beacon unreachable: \(why)"
        case .malformed(let why): return "beacon answered garbage: \(why)"
        }
    }
}
