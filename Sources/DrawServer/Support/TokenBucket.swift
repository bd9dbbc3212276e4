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

    /// Whole seconds, at least 1, until `take` can succeed again after it just failed (the
    /// `Retry-After` of a refusal); `nil` when the bucket never refills (rate 0).
    func secondsUntilNextToken() -> Int? {
        guard ratePerSecond > 0 else { return nil }
        let seconds = (1 - min(1, tokens)) / ratePerSecond
        // A tiny rate makes a huge wait: clamp before converting, a Double beyond Int traps.
        // The epsilon keeps float noise (2.0000000001 s) from adding a whole second.
        return max(1, Int(min((seconds - 1e-9).rounded(.up), 86_400)))
    }
}
