@testable import DrawServer
import Testing

/// The pieces behind issue 11, finding 3 (room exhaustion), without a server: the LRU order, the
/// per-address creation budget, the registry's eviction policy, and the JSON-only rule.
@Suite struct LRUOrderTests {
    @Test func touchMovesAKeyToTheNewestEnd() {
        var order = LRUOrder<String>()
        for k in ["a", "b", "c"] { order.touch(k) }
        order.touch("a")
        #expect(order.keysOldestFirst == ["b", "c", "a"])
        #expect(order.oldest == "b")
        do { let v = order.remove("c"); #expect(v) }
        do { let v = order.remove("c"); #expect(!v) }
        #expect(order.keysOldestFirst == ["b", "a"])
        do { let v = order.popOldest(); #expect(v == "b") }
        do { let v = order.popOldest(); #expect(v == "a") }
        do { let v = order.popOldest(); #expect(v == nil) }
        #expect(order.isEmpty)
        order.touch("z")
        #expect(order.keysOldestFirst == ["z"])
    }
}

@Suite struct AddressRateLimiterTests {
    private static let second: UInt64 = 1_000_000_000

    @Test func aBurstThenOneEveryIntervalWithRetryAfter() {
        // 3 at once, then one every 6 s (10 a minute).
        var limiter = AddressRateLimiter(ratePerSecond: 10.0 / 60, burst: 3, capacity: 16)
        for _ in 0..<3 { let v = limiter.take("198.51.100.1", nowNanos: 0); #expect(v == .allowed) }
        do { let v = limiter.take("198.51.100.1", nowNanos: 0); #expect(v == .limited(retryAfterSeconds: 6)) }
        // Another address has its own budget.
        do { let v = limiter.take("198.51.100.2", nowNanos: 0); #expect(v == .allowed) }
        // 4 s later, 2 s to go; at 6 s one more, and only one.
        do { let v = limiter.take("198.51.100.1", nowNanos: 4 * Self.second); #expect(v == .limited(retryAfterSeconds: 2)) }
        do { let v = limiter.take("198.51.100.1", nowNanos: 6 * Self.second); #expect(v == .allowed) }
        do { let v = limiter.take("198.51.100.1", nowNanos: 6 * Self.second); #expect(v == .limited(retryAfterSeconds: 6)) }
    }

    @Test func theTableNeverHoldsMoreThanItsCapacity() {
        var limiter = AddressRateLimiter(ratePerSecond: 1, burst: 1, capacity: 8)
        for i in 0..<10_000 { _ = limiter.take("10.0.\(i / 256).\(i % 256)", nowNanos: UInt64(i)) }
        #expect(limiter.trackedAddresses == 8)
    }

    @Test func theAddressSeenLeastRecentlyIsForgottenFirst() {
        var limiter = AddressRateLimiter(ratePerSecond: 0.001, burst: 1, capacity: 2)
        do { let v = limiter.take("a", nowNanos: 0); #expect(v == .allowed) }
        do { let v = limiter.take("b", nowNanos: 0); #expect(v == .allowed) }
        do { let v = limiter.take("a", nowNanos: 1); #expect(v != .allowed) } // a is now the most recent
        do { let v = limiter.take("c", nowNanos: 2); #expect(v == .allowed) } // forgets b, not a
        do { let v = limiter.take("a", nowNanos: 3); #expect(v != .allowed) }
        do { let v = limiter.take("b", nowNanos: 4); #expect(v == .allowed) } // b was forgotten: a fresh budget
    }

    @Test func retryAfterIsWholeSecondsAndCapped() {
        var slow = TokenBucket(ratePerSecond: 1e-12, burst: 1)
        _ = slow.take(nowNanos: 0)
        #expect(slow.secondsUntilNextToken() == 86_400)
        var fast = TokenBucket(ratePerSecond: 1000, burst: 1)
        _ = fast.take(nowNanos: 0)
        #expect(fast.secondsUntilNextToken() == 1)
        #expect(TokenBucket(ratePerSecond: 0, burst: 1).secondsUntilNextToken() == nil)
    }
}

@Suite struct ClientAddressTests {
    @Test func ipv4IsItsOwnKeyAndIPv6CountsPerSlash64() {
        #expect(ClientAddress.budgetKey(for: "203.0.113.9") == "203.0.113.9")
        #expect(ClientAddress.budgetKey(for: "::ffff:203.0.113.9") == "203.0.113.9") // a dual-stack listener
        let a = ClientAddress.budgetKey(for: "2001:db8:1:2:aaaa::1")
        #expect(a == "2001:db8:1:2::/64")
        #expect(ClientAddress.budgetKey(for: "2001:db8:1:2:ffff:ffff:ffff:ffff") == a)
        #expect(ClientAddress.budgetKey(for: "2001:db8:1:3::1") != a)
        #expect(ClientAddress.budgetKey(for: nil) == ClientAddress.unknown)
        #expect(ClientAddress.budgetKey(for: "getpeername: bad") == ClientAddress.unknown)
    }
}

@Suite struct JSONContentTypeTests {
    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON",
                      " application/json ;charset=UTF-8", "application/json;"])
    func json(_ value: String) { #expect(JSONContentType.matches(value)) }

    /// What a cross-site page can send without a preflight, and other near misses.
    @Test(arguments: ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                      "multipart/form-data; boundary=x", "", "application/jsonp", "application/json-patch+json",
                      "application/ json", "text/json"])
    func notJSON(_ value: String) { #expect(!JSONContentType.matches(value)) }

    @Test func aMissingContentTypeIsNotJSON() { #expect(!JSONContentType.matches(nil)) }
}

@Suite struct LazyRingTests {
    @Test func theRingAllocatesOnFirstAppendAndReleasesOnRequest() {
        var ring = BroadcastRing<Int>(capacity: 64)
        #expect(!ring.hasStorage)
        ring.append(1)
        #expect(ring.hasStorage)
        #expect(ring.element(at: 0) == 1)
        ring.releaseStorage()
        #expect(!ring.hasStorage)
        #expect(ring.nextSeq == 1)            // sequence numbers never repeat
        #expect(ring.element(at: 0) == nil)   // and nothing is read from freed slots
        ring.append(2)
        #expect(ring.element(at: 1) == 2)
    }
}
