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
}
