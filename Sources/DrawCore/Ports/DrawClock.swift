/// Time, as the server needs it to carry out a plan.
///
/// Injected so that tests can drive rounds without sleeping. Named `DrawClock` to stay clear of
/// the standard library's `Clock`.
public protocol DrawClock: Sendable {
    /// Wall-clock time in epoch milliseconds (fractional), as put into `sentAt`.
    func epochMillis() -> Double
    /// A monotonic reading in nanoseconds, for scheduling and lateness; never goes backwards.
    func monotonicNanos() -> UInt64
}
