@testable import DrawServer
import Testing

/// The idle ping and hang-up rule without a server (issue 17): times are given, not read, so
/// every boundary is exact. `Tests/e2e/test_liveness.py` checks the same rule over real sockets.
@Suite struct IdleTrackerTests {
    static let second: UInt64 = 1_000_000_000
    /// Ping after 30 s, let go after 60 s: the server's defaults.
    func tracker<Key>() -> IdleTracker<Key> {
        IdleTracker(pingAfterNanos: 30 * Self.second, hangUpAfterNanos: 60 * Self.second)
    }

    @Test func aClientIsPingedOnceAtThePingIntervalAndLetGoAtTheTimeout() {
        var t: IdleTracker<String> = tracker()
        t.heard("a", at: 0)
        #expect(t.sweep(at: 30 * Self.second - 1) == .init())
        #expect(t.sweep(at: 30 * Self.second) == .init(ping: ["a"]))
        #expect(t.isPinged("a"))
        // Pinged once: later sweeps before the timeout find nothing new.
        #expect(t.sweep(at: 45 * Self.second) == .init())
        #expect(t.sweep(at: 60 * Self.second - 1) == .init())
        #expect(t.sweep(at: 60 * Self.second) == .init(hangUp: ["a"]))
        #expect(t.count == 0)
        #expect(t.sweep(at: 200 * Self.second) == .init())
    }

    @Test func anAnswerAfterThePingStartsTheSilenceAgain() {
        var t: IdleTracker<String> = tracker()
        t.heard("a", at: 0)
        #expect(t.sweep(at: 30 * Self.second) == .init(ping: ["a"]))
        t.heard("a", at: 31 * Self.second) // the pong
        #expect(!t.isPinged("a"))
        #expect(t.sweep(at: 60 * Self.second) == .init())
        #expect(t.sweep(at: 61 * Self.second) == .init(ping: ["a"]))
        #expect(t.sweep(at: 91 * Self.second) == .init(hangUp: ["a"]))
    }

    @Test func onlyTheSilentOnesAreDueInTheOrderTheyWereLastHeard() {
        var t: IdleTracker<String> = tracker()
        for (i, k) in ["a", "b", "c", "d"].enumerated() { t.heard(k, at: UInt64(i) * Self.second) }
        t.heard("a", at: 10 * Self.second) // a spoke again: now the most recent
        #expect(t.sweep(at: 32 * Self.second) == .init(ping: ["b", "c"]))
        #expect(t.sweep(at: 40 * Self.second) == .init(ping: ["d", "a"]))
        t.heard("c", at: 41 * Self.second)
        #expect(t.sweep(at: 62 * Self.second) == .init(hangUp: ["b"]))
        #expect(t.sweep(at: 70 * Self.second) == .init(hangUp: ["d", "a"]))
        #expect(t.count == 1)
    }

    /// After a stall (or a jump of the clock) a client silent past both intervals is pinged, not
    /// dropped: its frames may only be waiting to be read. It then has the answer time.
    @Test func aLateSweepPingsFirstAndGivesTheAnswerTime() {
        var t: IdleTracker<String> = tracker()
        t.heard("a", at: 0)
        t.heard("b", at: 20 * Self.second)
        #expect(t.sweep(at: 2 * 86_400 * Self.second) == .init(ping: ["a", "b"]))
        let pingedAt = 2 * 86_400 * Self.second
        #expect(t.sweep(at: pingedAt + 30 * Self.second - 1) == .init())
        t.heard("b", at: pingedAt + 1) // b answers
        #expect(t.sweep(at: pingedAt + 30 * Self.second) == .init(hangUp: ["a"]))
        #expect(t.count == 1)
    }

    @Test func aHangUpIntervalNotAboveThePingIntervalStillGivesTheAnswerSomeTime() {
        var t = IdleTracker<String>(pingAfterNanos: 10, hangUpAfterNanos: 10)
        #expect(t.answerNanos == 1)
        t.heard("a", at: 0)
        #expect(t.sweep(at: 10) == .init(ping: ["a"]))
        #expect(t.sweep(at: 11) == .init(hangUp: ["a"]))
    }

    @Test func aForgottenClientIsNeverDue() {
        var t: IdleTracker<String> = tracker()
        t.heard("a", at: 0)
        t.heard("b", at: 0)
        #expect(t.sweep(at: 30 * Self.second) == .init(ping: ["a", "b"]))
        t.forget("a")
        t.forget("a") // twice is harmless
        #expect(t.sweep(at: 60 * Self.second) == .init(hangUp: ["b"]))
        #expect(t.count == 0)
    }

    @Test func aTimeBeforeTheClientWasHeardCountsAsNoSilenceAndDoesNotTrap() {
        var t: IdleTracker<String> = tracker()
        t.heard("a", at: 100 * Self.second)
        #expect(t.sweep(at: 0) == .init())
        #expect(t.sweep(at: UInt64.max) == .init(ping: ["a"]))
        #expect(t.sweep(at: 0) == .init())
        #expect(t.sweep(at: UInt64.max) == .init())
    }

    /// The reason it exists: a join storm or a wave of pongs costs O(1) per client, so 100,000
    /// clients heard, swept, answered and swept again finish at once (lws' list was O(n) each).
    @Test func manyClientsAreTrackedWithoutWalkingThemAll() {
        var t: IdleTracker<Int> = tracker()
        let n = 100_000
        for i in 0..<n { t.heard(i, at: UInt64(i)) }
        let pings = t.sweep(at: 30 * Self.second + UInt64(n))
        #expect(pings.ping.count == n)
        #expect(pings.ping.first == 0 && pings.ping.last == n - 1)
        for i in stride(from: 0, to: n, by: 2) { t.heard(i, at: 31 * Self.second) }
        let hangUps = t.sweep(at: 60 * Self.second + UInt64(n))
        #expect(hangUps.hangUp.count == n / 2)
        #expect(hangUps.hangUp.allSatisfy { $0 % 2 == 1 })
    }
}

@Suite struct IdleSettingsTests {
    /// The configured seconds become nanoseconds without wrapping: a setting too large for
    /// nanoseconds means never, not a short interval.
    @Test func secondsBecomeNanosecondsSaturating() {
        #expect(Nanoseconds.seconds(30) == 30_000_000_000)
        #expect(Nanoseconds.seconds(-5) == 0)
        #expect(Nanoseconds.seconds(Int.max) == UInt64.max)
        #expect(Nanoseconds.milliseconds(1500) == 1_500_000_000)
        #expect(Nanoseconds.milliseconds(Int.max) == UInt64.max)
        // The heartbeat interval took its own product, which wrapped; it is this one now.
        #expect(RoomHeartbeat(intervalSeconds: Int.max).intervalNanos == UInt64.max)
        #expect(RoomHeartbeat(intervalSeconds: 5).intervalNanos == 5_000_000_000)
    }
}
