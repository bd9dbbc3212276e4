import DrawCore
@testable import DrawServer
import DrawPresentation
import Testing

@Suite struct RoomNameTests {
    @Test(arguments: ["lobby", "a", "team-a", "0-9", String(repeating: "x", count: 64)])
    func accepts(_ name: String) { #expect(RoomName.isValid(name)) }

    @Test(arguments: ["", "Lobby", "a_b", "a b", "a/b", "..", "é", "a\u{0}", String(repeating: "x", count: 65), "ｌobby"])
    func refuses(_ name: String) { #expect(!RoomName.isValid(name)) }
}

@Suite struct HostKeyTests {
    struct CountingRandom: RandomSource {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0) } }
    }

    @Test func is48LowercaseHexFrom24Bytes() {
        let key = HostKey.generate(using: CountingRandom())
        #expect(key.count == 48)
        #expect(key == "000102030405060708090a0b0c0d0e0f1011121314151617")
        #expect(key.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func matchesOnlyTheExactKey() {
        let key = HostKey.generate(using: CountingRandom())
        let stored = Array(key.utf8)
        #expect(HostKey.matches(key, stored))
        #expect(!HostKey.matches(String(key.dropLast()), stored))
        #expect(!HostKey.matches(key.uppercased(), stored))
        #expect(!HostKey.matches("", stored))
    }
}

@Suite struct BearerTokenTests {
    @Test func parsesTheToken() {
        #expect(BearerToken.parse("Bearer abc123") == "abc123")
        #expect(BearerToken.parse("bearer abc123") == "abc123")
        #expect(BearerToken.parse("  BEARER \t abc123  ") == "abc123")
    }

    @Test func refusesEverythingElse() {
        #expect(BearerToken.parse(nil) == nil)
        #expect(BearerToken.parse("") == nil)
        #expect(BearerToken.parse("Bearer") == nil)
        #expect(BearerToken.parse("Bearer   ") == nil)
        #expect(BearerToken.parse("Basic abc") == nil)
        #expect(BearerToken.parse("Bearerabc") == nil)
        #expect(BearerToken.parse("Bearer a b") == nil)
    }
}

@Suite struct TokenBucketTests {
    @Test func allowsTheBurstThenRefillsWithTime() {
        var b = TokenBucket(ratePerSecond: 20, burst: 40)
        let t0: UInt64 = 1_000_000_000
        for _ in 0..<40 { let v = b.take(nowNanos: t0); #expect(v) }
        do { let v = b.take(nowNanos: t0); #expect(!v) }
        // 50 ms at 20/s refills exactly one token.
        do { let v = b.take(nowNanos: t0 + 50_000_000); #expect(v) }
        do { let v = b.take(nowNanos: t0 + 50_000_000); #expect(!v) }
        // A long pause refills only up to the burst.
        let later = t0 + 60_000_000_000
        for _ in 0..<40 { let v = b.take(nowNanos: later); #expect(v) }
        do { let v = b.take(nowNanos: later); #expect(!v) }
    }

    @Test func aClockGoingBackwardsRefillsNothing() {
        var b = TokenBucket(ratePerSecond: 1000, burst: 1)
        do { let v = b.take(nowNanos: 5_000_000_000); #expect(v) }
        do { let v = b.take(nowNanos: 1_000_000_000); #expect(!v) }
        do { let v = b.take(nowNanos: 5_000_000_000); #expect(!v) }
        do { let v = b.take(nowNanos: 5_001_000_000); #expect(v) }
    }
}

@Suite struct PresenceCoalescerTests {
    @Test func firstChangeFiresAtOnceThenAtMostOncePerInterval() {
        var p = PresenceCoalescer(intervalMs: 250)
        let ms: UInt64 = 1_000_000
        do { let v = p.countChanged(viewers: 2, nowNanos: 1000 * ms); #expect(v == 0) }
        #expect(p.countChanged(viewers: 2, nowNanos: 1001 * ms) == nil) // armed: the timer carries it
        do { let v = p.fire(count: 2, nowNanos: 1001 * ms); #expect(v == 2) }
        // 100 ms later: wait the remaining 150 ms.
        do { let v = p.countChanged(viewers: 2, nowNanos: 1101 * ms); #expect(v == 150 * ms) }
        do { let v = p.countChanged(viewers: 2, nowNanos: 1200 * ms); #expect(v == nil) }
        do { let v = p.fire(count: 7, nowNanos: 1251 * ms); #expect(v == 7) }
        // After the interval: at once again.
        do { let v = p.countChanged(viewers: 2, nowNanos: 2000 * ms); #expect(v == 0) }
    }

    @Test func unchangedCountIsNotResent() {
        var p = PresenceCoalescer(intervalMs: 250)
        _ = p.countChanged(viewers: 2, nowNanos: 0)
        do { let v = p.fire(count: 3, nowNanos: 0); #expect(v == 3) }
        _ = p.countChanged(viewers: 2, nowNanos: 1_000_000_000) // a join and a leave in between
        do { let v = p.fire(count: 3, nowNanos: 1_000_000_000); #expect(v == nil) }
        #expect(p.timerArmed == false)
    }

    /// Big rooms get their count less often: a `presence` costs one message per viewer.
    @Test func theIntervalGrowsWithTheRoom() {
        let ms: UInt64 = 1_000_000
        var p = PresenceCoalescer(intervalMs: 250, nanosPerViewer: 100_000)
        #expect(p.intervalNanos(viewers: 10) == 250 * ms)       // small rooms: the minimum
        #expect(p.intervalNanos(viewers: 2_500) == 250 * ms)
        #expect(p.intervalNanos(viewers: 10_000) == 1_000 * ms) // 10,000 messages a second at most
        _ = p.countChanged(viewers: 10_000, nowNanos: 0)
        _ = p.fire(count: 10_000, nowNanos: 0)
        #expect(p.countChanged(viewers: 10_000, nowNanos: 100 * ms) == 900 * ms)
    }
}

@Suite struct BroadcastRingTests {
    @Test func cursorsSeeEveryMessageWithinCapacity() {
        var ring = BroadcastRing<Int>(capacity: 3)
        let cursor: UInt64 = ring.nextSeq
        #expect(ring.pending(from: cursor) == 0)
        for i in 0..<3 { ring.append(i) }
        #expect(ring.pending(from: cursor) == 3)
        #expect((0..<3).map { ring.element(at: cursor + UInt64($0)) } == [0, 1, 2])
        #expect(ring.element(at: 3) == nil) // not yet appended
    }

    @Test func overwrittenMessagesAreGone() {
        var ring = BroadcastRing<Int>(capacity: 3)
        for i in 0..<5 { ring.append(i) }
        #expect(ring.nextSeq == 5)
        #expect(ring.element(at: 1) == nil)
        #expect(ring.element(at: 2) == 2)
        #expect(ring.element(at: 4) == 4)
        #expect(ring.pending(from: 0) == 5) // over capacity: that client is too slow
        #expect(ring.pending(from: 9) == 0)
    }

    @Test func fifoKeepsOrderAcrossRefills() {
        var q = FIFO<Int>()
        q.push(1); q.push(2)
        do { let v = q.pop(); #expect(v == 1) }
        q.push(3)
        #expect(q.count == 2)
        do { let v = q.pop(); #expect(v == 2) }
        do { let v = q.pop(); #expect(v == 3) }
        do { let v = q.pop(); #expect(v == nil) }
        #expect(q.isEmpty)
        q.push(4)
        do { let v = q.pop(); #expect(v == 4) }
    }
}

@Suite struct StaticPathTests {
    @Test(arguments: [
        ("/", "index.html"), ("/index.html", "index.html"), ("/app.js", "app.js"),
        ("/assets/", "assets/index.html"), ("/assets/logo-1.svg", "assets/logo-1.svg"), ("//a//b.css", "a/b.css"),
    ])
    func mapsSafePaths(_ request: String, _ expected: String) {
        #expect(StaticFiles.relativePath(for: request) == expected)
    }

    @Test(arguments: [
        "", "index.html", "/../etc/passwd", "/..", "/a/../../b", "/.git/config", "/.env", "/a\\..\\b",
        "/%2e%2e/x", "/%252e%252e/x", "/a\u{0}b", "/a%00", "/é.html", "/a b", "/~root", "/a:b",
    ])
    func refusesEverythingElse(_ request: String) {
        #expect(StaticFiles.relativePath(for: request) == nil)
    }

    @Test func contentTypes() {
        #expect(StaticFiles.contentType(for: "/x/index.html") == "text/html; charset=utf-8")
        #expect(StaticFiles.contentType(for: "/x/app.JS") == "text/javascript; charset=utf-8")
        #expect(StaticFiles.contentType(for: "/x/noext") == "application/octet-stream")
    }
}

@Suite struct HTTPRouteTests {
    @Test func matchesTheAPI() {
        #expect(HTTPRoute.match("/healthz") == .health)
        #expect(HTTPRoute.match("/metrics") == .metrics)
        #expect(HTTPRoute.match("/api/rooms") == .rooms)
        #expect(HTTPRoute.match("/api/rooms/team-a") == .room("team-a"))
        #expect(HTTPRoute.match("/api/rooms/team-a/draws") == .draws("team-a"))
        #expect(HTTPRoute.match("/api/rooms/team-a/other") == .unknownAPI)
        #expect(HTTPRoute.match("/api/draws/00112233445566778899aabbccddeeff") == .draw("00112233445566778899aabbccddeeff"))
        #expect(HTTPRoute.match("/api/draws/") == .unknownAPI)
        #expect(HTTPRoute.match("/api/draws/x/y") == .unknownAPI)
        #expect(HTTPRoute.match("/api/other") == .unknownAPI)
        #expect(HTTPRoute.match("/") == .staticFile("/"))
        #expect(HTTPRoute.match("/apiary.html") == .staticFile("/apiary.html"))
    }

    @Test func methodsPerEndpoint() {
        #expect(HTTPRoute.rooms.allowedMethods == [.post])
        #expect(HTTPRoute.draws("x").allowedMethods == [.get, .post])
        #expect(HTTPRoute.room("x").allowedMethods == [.get, .delete])
        #expect(HTTPRoute.roomKey("x").allowedMethods == [.post])
        #expect(HTTPRoute.match("/api/rooms/x/key") == .roomKey("x"))
        #expect(HTTPRoute.room("x").allowHeader == "GET, HEAD, DELETE")
        #expect(HTTPRoute.draw("x").allowedMethods == [.get])
        #expect(HTTPRoute.unknownAPI.allowedMethods.isEmpty)
    }
}
