import DrawTransport

/// The one-shot timer a `DrawRunner` waits on between the steps of a draw.
///
/// A protocol so that tests can drive a runner step by step with an injected clock, firing the
/// timer by hand, and see exactly which delay it asked for. The server uses `LoopTimer`,
/// made by its `LoopScheduler`.
protocol DrawTimer: AnyObject {
    /// Arms the timer `nanos` from now, replacing an earlier schedule.
    func schedule(afterNanos nanos: UInt64)
    func cancel()
}

extension LoopTimer: DrawTimer {}
