/// What can happen to a room's draw: everything `DrawSession` reacts to. Each input carries the
/// time it happened at, read by whoever feeds the session.
public enum DrawInput: Sendable {
    /// The host asked for a draw (the host key was checked by the caller).
    case startRequested(at: DrawInstant)
    /// The host asked for a redraw (the host key was checked by the caller, and `RedrawLink.make`
    /// decided it and gave its players): a new draw of one winner, planned at once.
    case redrawRequested(RedrawLink, MergeResult, at: DrawInstant)
    /// The host asked for the next winner of a draw waiting for it (`WinnerRevealMode.eachByHost`).
    case nextWinnerRequested(at: DrawInstant)
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
    /// The fetch asked for by `DrawEffect.fetchBeacon` for draw `drawId` returned: the round as
    /// the beacon answered it (checked by the session), or why there is none.
    case beaconFetched(drawId: String, Result<BeaconRound, BeaconFetchError>, at: DrawInstant)
}

extension DrawInput {
    /// When it happened.
    public var at: DrawInstant {
        switch self {
        case .startRequested(let t), .playersLoaded(_, _, let t), .written(_, _, let t), .timerDue(let t),
             .abort(_, let t), .shutdown(let t), .redrawRequested(_, _, let t), .nextWinnerRequested(let t),
             .beaconFetched(_, _, let t):
            return t
        }
    }
}

extension DrawInput {
    /// Whether it stops the draw (`abort`, `shutdown`): such an input is never held back.
    public var stops: Bool {
        switch self {
        case .abort, .shutdown: return true
        case .startRequested, .playersLoaded, .written, .timerDue, .redrawRequested, .nextWinnerRequested,
             .beaconFetched: return false
        }
    }

    /// The same input as if it happened at `t`: one held back (cluster mode, while the node
    /// proves it still holds the draw's lease) is fed when it is let through, at that time.
    public func restamped(at t: DrawInstant) -> DrawInput {
        switch self {
        case .startRequested: return .startRequested(at: t)
        case .playersLoaded(let attempt, let result, _): return .playersLoaded(attempt: attempt, result, at: t)
        case .written(let write, let error, _): return .written(write, error: error, at: t)
        case .timerDue: return .timerDue(at: t)
        case .abort(let reason, _): return .abort(reason: reason, at: t)
        case .shutdown: return .shutdown(at: t)
        case .redrawRequested(let link, let players, _): return .redrawRequested(link, players, at: t)
        case .nextWinnerRequested: return .nextWinnerRequested(at: t)
        case .beaconFetched(let drawId, let result, _): return .beaconFetched(drawId: drawId, result, at: t)
        }
    }
}
