/// Per-connection rate limit: `burst` tokens, refilled at `ratePerSecond`; a message costs one.
///
/// Time comes in as monotonic nanoseconds from the caller (the server's `DrawClock`), so tests
/// drive it without sleeping.
struct TokenBucket {
    let ratePerSecond: Double
    let burst: Double
    private(set) var tokens: Double
    private var lastNanos: UInt64?

    init(ratePerSecond: Double, burst: Double) {
        self.ratePerSecond = max(0, ratePerSecond)
        self.burst = max(1, burst)
        self.tokens = self.burst
    }

    /// Takes one token if there is one.
    mutating func take(nowNanos: UInt64) -> Bool {
        if let last = lastNanos {
            // A clock that did not advance (or a stale reading) refills nothing.
            if nowNanos > last {
                tokens = min(burst, tokens + Double(nowNanos - last) / 1e9 * ratePerSecond)
                lastNanos = nowNanos
            }
        } else {
            lastNanos = nowNanos
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
