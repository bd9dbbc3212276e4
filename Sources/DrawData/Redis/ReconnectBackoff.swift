/// Delays between reconnect attempts: exponential, capped, with jitter, so that many nodes that
/// lost the same Redis do not all knock at the same instant when it comes back.
///
/// After `n` failures in a row the ceiling is `initialMs * 2^(n-1)`, capped at `maxMs`; the delay
/// is drawn uniformly from the upper half of it ("equal jitter"), so it is never below half the
/// ceiling (no hammering) and never above `maxMs` (a restarted Redis is found within `maxMs`).
public struct ReconnectBackoff: Sendable, Hashable {
    public var initialMs: Int
    public var maxMs: Int

    public init(initialMs: Int = 100, maxMs: Int = 5_000) {
        precondition(initialMs >= 1 && maxMs >= initialMs, "need 1 <= initialMs <= maxMs")
        self.initialMs = initialMs
        self.maxMs = maxMs
    }

    /// The ceiling after `failures` failures in a row (0 failures: no wait).
    public func ceilingMs(afterFailures failures: Int) -> Int {
        guard failures > 0 else { return 0 }
        // Doubling past the cap is pointless and would overflow: stop at the first power that
        // reaches it (at most 63 doublings of a positive Int).
        var ceiling = initialMs
        var step = 1
        while step < failures, ceiling < maxMs {
            let (doubled, overflow) = ceiling.multipliedReportingOverflow(by: 2)
            ceiling = overflow ? maxMs : doubled
            step += 1
        }
        return min(ceiling, maxMs)
    }

    /// The delay before the next attempt after `failures` failures in a row.
    public func delayMs<G: RandomNumberGenerator>(afterFailures failures: Int, using generator: inout G) -> Int {
        let ceiling = ceilingMs(afterFailures: failures)
        guard ceiling > 0 else { return 0 }
        let half = ceiling / 2
        return half + Int.random(in: 0...(ceiling - half), using: &generator)
    }

    /// The same, with the system's generator.
    public func delayMs(afterFailures failures: Int) -> Int {
        var generator = SystemRandomNumberGenerator()
        return delayMs(afterFailures: failures, using: &generator)
    }
}
