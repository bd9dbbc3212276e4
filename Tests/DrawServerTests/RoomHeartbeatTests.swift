@testable import DrawServer
import Testing

/// `RoomHeartbeat`: a watched room that broadcast nothing for the interval is due once, a room
/// that broadcasts (a draw, `presence`) never, a forgotten room never, and a tick takes only the
/// due rooms, longest quiet first. Time is passed in, never waited for.
@Suite struct RoomHeartbeatTests {
    private static let second: UInt64 = 1_000_000_000

    /// Ticks once a second over `seconds`, as the server does: every due room gets a heartbeat,
    /// which is a broadcast (`heard`). Returns the seconds at which each room got one.
    private static func run(_ beat: inout RoomHeartbeat, seconds: ClosedRange<UInt64>,
                            broadcasts: [UInt64: [String]] = [:]) -> [String: [UInt64]] {
        var log: [String: [UInt64]] = [:]
        for t in seconds {
            for room in broadcasts[t] ?? [] { beat.heard(room, nowNanos: t * second) }
            while let room = beat.popDue(nowNanos: t * second) {
                log[room, default: []].append(t)
                beat.heard(room, nowNanos: t * second)
            }
        }
        return log
    }

    @Test func aQuietWatchedRoomIsDueOnceEveryInterval() {
        var beat = RoomHeartbeat(intervalSeconds: 5)
        beat.heard("a", nowNanos: 0)   // its first viewer
        #expect(Self.run(&beat, seconds: 0...16)["a"] == [5, 10, 15])
    }

    @Test func broadcastsPutTheHeartbeatOff() {
        var beat = RoomHeartbeat(intervalSeconds: 5)
        beat.heard("a", nowNanos: 0)
        // A draw's rounds every 2 s: never 5 s quiet.
        let rounds = Dictionary(uniqueKeysWithValues: stride(from: UInt64(2), through: 12, by: 2).map { ($0, ["a"]) })
        #expect(Self.run(&beat, seconds: 0...12, broadcasts: rounds)["a"] == nil)
        // Quiet from 12 s on: due at 17 s, five seconds after the last round.
        #expect(Self.run(&beat, seconds: 13...17)["a"] == [17])
    }

    @Test func forgottenRoomsAndAZeroIntervalOweNothing() {
        var beat = RoomHeartbeat(intervalSeconds: 5)
        beat.heard("a", nowNanos: 0)
        beat.forget("a")
        #expect(!beat.isWatched("a"))
        #expect(Self.run(&beat, seconds: 0...20).isEmpty)
        var off = RoomHeartbeat(intervalSeconds: 0)
        off.heard("a", nowNanos: 0)
        #expect(off.count == 0)
        #expect(Self.run(&off, seconds: 0...20).isEmpty)
    }

    /// The tick's cost is the due rooms, not all of them: with 100,000 rooms heard at different
    /// instants, each tick hands out exactly the ones due, in the order they fell quiet, and the
    /// first room not due ends it.
    @Test func aTickTakesOnlyTheDueRoomsLongestQuietFirst() {
        var beat = RoomHeartbeat(intervalSeconds: 5)
        let n: UInt64 = 100_000
        // Room i last broadcast at i microseconds: spread over the first 0.1 s.
        for i in 0..<n { beat.heard("r\(i)", nowNanos: i * 1_000) }
        #expect(beat.popDue(nowNanos: 5 * Self.second - 1) == nil)
        var due: [String] = []
        while let room = beat.popDue(nowNanos: 5 * Self.second + 50_000_000) { due.append(room) }
        // Quiet since before 50 ms: rooms 0 ... 50,000, in that order.
        #expect(due.count == 50_001)
        #expect(due.first == "r0" && due.last == "r50000")
        #expect(due == (0...50_000).map { "r\($0)" })
        #expect(beat.count == Int(n) - 50_001)
    }

    @Test func aBroadcastMovesARoomToTheBack() {
        var beat = RoomHeartbeat(intervalSeconds: 1)
        beat.heard("a", nowNanos: 0)
        beat.heard("b", nowNanos: 100)
        beat.heard("a", nowNanos: 200)   // a broadcast in a: b is now the longest quiet
        #expect(beat.popDue(nowNanos: Self.second + 100) == "b")
        #expect(beat.popDue(nowNanos: Self.second + 100) == nil)
        #expect(beat.popDue(nowNanos: Self.second + 200) == "a")
    }

    @Test func aClockThatGoesBackDoesNotFireEarly() {
        var beat = RoomHeartbeat(intervalSeconds: 5)
        beat.heard("a", nowNanos: 10 * Self.second)
        #expect(beat.popDue(nowNanos: 2 * Self.second) == nil)
        #expect(beat.popDue(nowNanos: 15 * Self.second) == "a")
    }

    @Test func noTrapAtTheEndsOfTime() {
        var beat = RoomHeartbeat(intervalSeconds: Int.max)   // saturates to "never", wraps nothing
        #expect(beat.intervalNanos == UInt64.max)
        beat.heard("a", nowNanos: UInt64.max)
        #expect(beat.popDue(nowNanos: UInt64.max) == nil)
        var short = RoomHeartbeat(intervalSeconds: 1)
        short.heard("a", nowNanos: UInt64.max - 1)
        #expect(short.popDue(nowNanos: UInt64.max) == nil)
        #expect(short.popDue(nowNanos: 0) == nil)
    }

    // MARK: the tick's write budget (takeDue)

    @Test func aTickTakesDueRoomsOnlyUpToItsWriteBudgetAndTheRestComeNextInOrder() {
        var beat = RoomHeartbeat(intervalSeconds: 1)
        for i in 0..<600 { beat.heard("r\(i)", nowNanos: UInt64(i)) }   // quiet together, in this order
        let now = 2 * Self.second
        var served: [String] = []
        var ticks = 0
        while served.count < 600, ticks < 100 {
            let taken = beat.takeDue(nowNanos: now, writeBudget: 256) { _ in 10 }
            #expect(taken.count <= 26, "a tick took \(taken.count) rooms of 10 for a budget of 256")
            served += taken
            ticks += 1
        }
        #expect(served == (0..<600).map { "r\($0)" })  // none lost, none twice, longest quiet first
        #expect(ticks == 24)                          // 26 rooms a tick (the 26th passes 256), 600 / 26 rounded up
        #expect(beat.takeDue(nowNanos: now, writeBudget: 256) { _ in 10 }.isEmpty)
    }

    @Test func aRoomLargerThanTheBudgetIsStillServedAlone() {
        var beat = RoomHeartbeat(intervalSeconds: 1)
        beat.heard("big", nowNanos: 0)
        beat.heard("small", nowNanos: 1)
        #expect(beat.takeDue(nowNanos: Self.second + 1, writeBudget: 256) { $0 == "big" ? 10_000 : 1 } == ["big"])
        #expect(beat.takeDue(nowNanos: Self.second + 1, writeBudget: 256) { $0 == "big" ? 10_000 : 1 } == ["small"])
    }

    @Test func goneRoomsAreDroppedAtNoCostAndViewerCountsCannotTrap() {
        var beat = RoomHeartbeat(intervalSeconds: 1)
        for name in ["gone1", "a", "gone2", "b", "huge", "c"] { beat.heard(name, nowNanos: 0) }
        let viewers: (String) -> Int? = { $0.hasPrefix("gone") ? nil : $0 == "huge" ? Int.max : 100 }
        #expect(beat.takeDue(nowNanos: Self.second, writeBudget: 250, viewers: viewers) == ["a", "b", "huge"])
        #expect(beat.takeDue(nowNanos: Self.second, writeBudget: 250, viewers: viewers) == ["c"])
        #expect(!beat.isWatched("gone1") && !beat.isWatched("gone2"))
    }

    @Test func theWriteBudgetDrainsEveryViewerWithinTwoSecondsOrOneInterval() {
        let tick: UInt64 = 100_000_000
        // 19,000 viewers whose rooms all fell due at once: 20 ticks of 950 (2 s) at a 5 s interval,
        // 10 ticks of 1,900 at a 1 s interval (the page gives up after 3 intervals).
        #expect(RoomHeartbeat.writeBudget(connections: 19_000, tickNanos: tick, intervalNanos: 5 * Self.second) == 950)
        #expect(RoomHeartbeat.writeBudget(connections: 19_000, tickNanos: tick, intervalNanos: Self.second) == 1_900)
        #expect(RoomHeartbeat.writeBudget(connections: 10, tickNanos: tick, intervalNanos: 5 * Self.second) == 256)
        #expect(RoomHeartbeat.writeBudget(connections: 0, tickNanos: tick, intervalNanos: 5 * Self.second) == 256)
        #expect(RoomHeartbeat.writeBudget(connections: 10, tickNanos: tick, intervalNanos: 0) == 256)
        #expect(RoomHeartbeat.writeBudget(connections: Int.max, tickNanos: UInt64.max, intervalNanos: 1) == Int.max)
    }

    @Test func aWholeServerFallingQuietAtOnceHearsWithinTheDrainBound() {
        // 1,900 rooms of 10 viewers, all quiet since 0, ticks every 100 ms as the server does.
        let tick: UInt64 = 100_000_000
        var beat = RoomHeartbeat(intervalSeconds: 5)
        for i in 0..<1_900 { beat.heard("r\(i)", nowNanos: 0) }
        let budget = RoomHeartbeat.writeBudget(connections: 19_000, tickNanos: tick, intervalNanos: beat.intervalNanos)
        var last: UInt64 = 0, served = 0
        var now: UInt64 = 0
        while served < 1_900, now < 20 * Self.second {
            let taken = beat.takeDue(nowNanos: now, writeBudget: budget) { _ in 10 }
            if !taken.isEmpty { last = now }
            served += taken.count
            for room in taken { beat.heard(room, nowNanos: now) }
            now += tick
        }
        #expect(served == 1_900)
        #expect(last <= beat.intervalNanos + RoomHeartbeat.drainNanos, "the last heartbeat came at \(last) ns")
    }
}
