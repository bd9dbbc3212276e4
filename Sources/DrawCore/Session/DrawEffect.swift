/// What `DrawSession` asks its shell to do, in the order it must be done.
///
/// The order matters: a round's `publish` comes before its `write`, so the record carries the
/// very `sentAt` the wire did; `wake` comes last, so the shell measures the delay after the
/// fan-out it just did.
public enum DrawEffect: Sendable, Hashable {
    /// Send this event to the room's viewers (the room event bus).
    case publish(DrawEvent)
    /// Start loading the players, off the caller's thread; the answer comes back as
    /// `DrawInput.playersLoaded` with the same `attempt`.
    case loadPlayers(attempt: UInt64)
    /// Hand this write to the store; the answer comes back as `DrawInput.written`. Only asked
    /// of a session that records draws (`DrawSession.Configuration.recordsDraws`).
    case write(DrawWrite)
    /// Feed `DrawInput.timerDue` at monotonic time `atNanos` (at once when that has passed),
    /// replacing any earlier wake-up.
    case wake(atNanos: UInt64)
    /// Forget the pending wake-up, if any.
    case cancelWake
    /// Fetch round `round` of the beacon chain `chainHash` for draw `drawId`, off the caller's
    /// thread; the answer comes back as `DrawInput.beaconFetched`.
    case fetchBeacon(drawId: String, chainHash: String, round: UInt64)
}
