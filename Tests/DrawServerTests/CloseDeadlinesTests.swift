@testable import DrawServer
import DrawTransport
import Testing

/// `CloseDeadlines`: a closing client is handed out once its deadline passed and not before, a
/// new deadline replaces the old one (also with another delay), a client lws reported closed is
/// never handed out, and a shutdown's thousands of deadlines come out in order. Times are passed
/// in, never waited for; the connections are never touched.
@Suite struct CloseDeadlinesTests {
    private static let second: UInt64 = 1_000_000_000

    private static func client(_ n: Int = 1) -> ClientConnection {
        ClientConnection(connection: Connection(wsi: OpaquePointer(bitPattern: 0x1000 * n)!),
                         bucket: TokenBucket(ratePerSecond: 1, burst: 1), maxMessageBytes: 128)
    }

    @Test func dueAtItsDeadlineOnceAndNotBefore() {
        var deadlines = CloseDeadlines()
        let c = Self.client()
        deadlines.arm(c, afterNanos: 5 * Self.second, nowNanos: Self.second)
        #expect(deadlines.popDue(nowNanos: 6 * Self.second - 1).isEmpty)
        #expect(deadlines.popDue(nowNanos: 6 * Self.second).map(ObjectIdentifier.init) == [ObjectIdentifier(c)])
        #expect(deadlines.popDue(nowNanos: 60 * Self.second).isEmpty)
        #expect(deadlines.count == 0)
    }

    /// The close frame went out at 1 s: the 5 s deadline to write it gives way to the handshake's 2 s.
    @Test func aNewDeadlineReplacesTheOldOneEvenWithAnotherDelay() {
        var deadlines = CloseDeadlines()
        let c = Self.client()
        deadlines.arm(c, afterNanos: 5 * Self.second, nowNanos: 0)
        deadlines.arm(c, afterNanos: 2 * Self.second, nowNanos: Self.second)
        #expect(deadlines.count == 1)
        #expect(deadlines.popDue(nowNanos: 3 * Self.second).count == 1)
        #expect(deadlines.popDue(nowNanos: 5 * Self.second).isEmpty)   // the old one is gone too
        // And a longer one after a shorter one is not cut short.
        deadlines.arm(c, afterNanos: 2 * Self.second, nowNanos: 10 * Self.second)
        deadlines.arm(c, afterNanos: 5 * Self.second, nowNanos: 10 * Self.second)
        #expect(deadlines.popDue(nowNanos: 12 * Self.second).isEmpty)
        #expect(deadlines.popDue(nowNanos: 15 * Self.second).count == 1)
    }

    @Test func aClientReportedClosedIsNeverHandedOut() {
        var deadlines = CloseDeadlines()
        let gone = Self.client(1), stuck = Self.client(2)
        deadlines.arm(gone, afterNanos: Self.second, nowNanos: 0)
        deadlines.arm(stuck, afterNanos: Self.second, nowNanos: 0)
        deadlines.forget(gone)
        deadlines.forget(gone)   // twice is harmless
        #expect(deadlines.popDue(nowNanos: 2 * Self.second).map(ObjectIdentifier.init) == [ObjectIdentifier(stuck)])
    }

    /// A shutdown closes every viewer with the same grace: all come out when it ends, in the
    /// order they were closed, none before.
    @Test func aShutdownsDeadlinesComeOutTogetherInOrder() {
        var deadlines = CloseDeadlines()
        let clients = (1...20_000).map { Self.client($0) }
        for (i, c) in clients.enumerated() { deadlines.arm(c, afterNanos: 25 * Self.second, nowNanos: UInt64(i)) }
        #expect(deadlines.popDue(nowNanos: 25 * Self.second - 1).isEmpty)
        let due = deadlines.popDue(nowNanos: 26 * Self.second)
        #expect(due.map(ObjectIdentifier.init) == clients.map(ObjectIdentifier.init))
        #expect(deadlines.count == 0)
    }

    @Test func noTrapAtTheEndsOfTime() {
        var deadlines = CloseDeadlines()
        let c = Self.client()
        deadlines.arm(c, afterNanos: UInt64.max, nowNanos: UInt64.max)
        #expect(deadlines.popDue(nowNanos: UInt64.max).isEmpty)
        #expect(deadlines.popDue(nowNanos: 0).isEmpty)   // a clock that went back
        deadlines.arm(c, afterNanos: 0, nowNanos: UInt64.max)
        #expect(deadlines.popDue(nowNanos: UInt64.max).count == 1)
    }
}
