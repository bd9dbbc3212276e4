/// A token bucket per client address, in a table of bounded size.
///
/// Used for room creation: each address may create `burst` rooms at once, then one every
/// `1 / ratePerSecond` seconds. The table holds at most `capacity` addresses, so a flood of new
/// addresses cannot grow it: when it is full the address seen least recently is forgotten, O(1)
/// (`LRUOrder`). Forgetting an address gives it a full bucket again. That is lossless for one
/// whose bucket had refilled anyway, which the least recently seen one most likely has; to reset
/// a bucket that is still in use, a client needs more than `capacity` other addresses active
/// since it last created a room, and with that many it has more rooms than the reset gives it.
///
/// Time is monotonic nanoseconds from the caller (the server's `DrawClock`), so tests drive it.
/// Service thread only.
struct AddressRateLimiter {
    enum Decision: Equatable {
        case allowed
        /// Refused; a new token comes in this many whole seconds (at least 1).
        case limited(retryAfterSeconds: Int)
    }

    let ratePerSecond: Double
    let burst: Double
    let capacity: Int
    private var buckets: [String: TokenBucket] = [:]
    private var recency = LRUOrder<String>()

    init(ratePerSecond: Double, burst: Double, capacity: Int) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
        self.capacity = max(1, capacity)
    }

    /// Addresses currently remembered (never more than `capacity`).
    var trackedAddresses: Int { buckets.count }

    /// Spends one token of `key` (see `ClientAddress.budgetKey`).
    mutating func take(_ key: String, nowNanos: UInt64) -> Decision {
        if buckets[key] == nil, buckets.count >= capacity, let forgotten = recency.popOldest() {
            buckets[forgotten] = nil
        }
        var bucket = buckets[key] ?? TokenBucket(ratePerSecond: ratePerSecond, burst: burst)
        let allowed = bucket.take(nowNanos: nowNanos)
        buckets[key] = bucket
        recency.touch(key)
        if allowed { return .allowed }
        // No refill at all (rate 0) is refused by config validation; a day is the cap anyway.
        return .limited(retryAfterSeconds: bucket.secondsUntilNextToken() ?? 86_400)
    }
}
