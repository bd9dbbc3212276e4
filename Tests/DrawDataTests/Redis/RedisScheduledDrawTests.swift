@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Scheduled draws of cluster mode (issue 30) on a real redis-server: what one node schedules,
/// another reads whole; one per room; of two nodes claiming a draw, exactly one gets it.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisScheduledDrawTests {
    static func draw(_ n: UInt8, room: String, at: Double, beacon: DrawBeacon? = nil) -> ScheduledDraw {
        let players = [Player(userId: 1, name: "Zoë \"Q\"", username: "z", regDate: CalendarDate(iso: "2020-01-02")!, isVoid: false),
                       Player(userId: 2, name: "名前", username: "n", regDate: CalendarDate(iso: "2021-03-04")!, isVoid: true)]
        return ScheduledDraw(drawId: String(repeating: String(format: "%02x", n), count: 16), room: room, at: at,
                             createdAt: 1_000.5, seed: Seed(bytes: Array(repeating: n, count: 32))!, entrants: players,
                             warnings: [.duplicateName(userId: 2, firstUserId: 1)],
                             schedule: RoundSchedule(rounds: 3, pace: .fixed(intervalMs: 50))!, winners: 2, reveal: .eachByHost,
                             sources: DrawSources(usersURL: "https://u.test", lotteryURL: "plain-text"), beacon: beacon)
    }

    /// Two nodes' stores on `server`, claiming as "a" and "b".
    static func twoNodes(on server: RedisServerProcess, claimLeaseMs: Int) -> (RedisRoomStore, RedisRoomStore) {
        let store = { (claimant: String) in
            RedisRoomStore(connection: RedisConnection(configuration: server.configuration()), claimant: claimant,
                           claimLeaseMs: claimLeaseMs)
        }
        return (store("a"), store("b"))
    }

    @Test func aDrawScheduledThroughOneNodeIsClaimedByExactlyOne() throws {
        let server = try RedisServerProcess()
        let nodeA = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        let nodeB = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { nodeA.connection.close(); nodeB.connection.close() }

        // The later one committed to a beacon round (FAIRNESS.md §10): read back with it.
        let beacon = DrawBeacon(chainHash: String(repeating: "ab", count: 32), round: 42, roundAtMs: 11_000)
        let later = Self.draw(2, room: "quiz", at: 9_000, beacon: beacon), sooner = Self.draw(1, room: "other", at: 5_000)
        #expect(try nodeA.schedule(later))
        #expect(try !nodeB.schedule(Self.draw(3, room: "quiz", at: 6_000)), "one per room, across nodes")
        #expect(try nodeB.schedule(sooner))
        #expect(try nodeB.scheduledDraws() == [sooner, later], "whole, soonest first")
        #expect(try nodeA.scheduledDraw(id: later.drawId) == later && later.beacon == beacon)

        #expect(try nodeB.claim(drawId: later.drawId) == later)
        #expect(try nodeA.claim(drawId: later.drawId) == nil, "claimed already")
        #expect(try nodeA.scheduledDraws() == [sooner])
        #expect(try nodeA.schedule(Self.draw(4, room: "quiz", at: 7_000)), "the room is free again")
    }

    /// A node's clock off by a day, either way: its claim at the draw's time is refused until the
    /// time by Redis' clock, with how long is left, and its offset to Redis is measured (issue 36).
    @Test func aClaimAtItsTimeWaitsForRedisClockAndTheOffsetIsMeasured() throws {
        let server = try RedisServerProcess()
        let store = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { store.connection.close() }
        let day = 86_400_000.0
        for skew in [day, -day] {
            let offset = try #require(try store.clockOffsetMs(from: SkewedClock(skewMs: skew)))
            #expect(abs(offset + skew) < 1_000, "Redis' clock minus the node's: \(offset)")
        }
        let redisNow = try #require(try store.clockOffsetMs(from: SkewedClock(skewMs: 0))) + Date().timeIntervalSince1970 * 1_000
        let waiting = Self.draw(5, room: "quiz", at: redisNow + 60_000), due = Self.draw(6, room: "party", at: redisNow - 1)
        #expect(try store.schedule(waiting) && store.schedule(due))
        guard case .early(let inMs) = try store.claimDue(drawId: waiting.drawId) else { Issue.record("claimed early"); return }
        #expect(inMs > 55_000 && inMs <= 60_000, "\(inMs) ms left by Redis' clock")
        #expect(try store.scheduledDraw(id: waiting.drawId) == waiting, "an early claim takes nothing")
        #expect(try store.claimDue(drawId: due.drawId) == .taken(due))
        try store.finishClaim(drawId: due.drawId)
        #expect(try store.claimDue(drawId: due.drawId) == .gone)
        #expect(try store.claim(drawId: waiting.drawId) == waiting, "a cancel takes it before its time")
    }

    /// The soak lost a scheduled draw: its node claimed it at its time and stopped before
    /// starting it. A claim at its time is a lease: while it runs no other node takes the draw
    /// (nor cancels it, nor lists it as waiting), the holder renews it, and once it lapses
    /// another node takes the draw.
    @Test func aClaimThatIsNeverStartedLapsesAndAnotherNodeTakesTheDraw() throws {
        let server = try RedisServerProcess()
        let (nodeA, nodeB) = Self.twoNodes(on: server, claimLeaseMs: 400)
        defer { nodeA.connection.close(); nodeB.connection.close() }
        let draw = Self.draw(7, room: "quiz", at: 1_000)
        #expect(try nodeA.schedule(draw))

        #expect(try nodeA.claimDue(drawId: draw.drawId) == .taken(draw))
        guard case .held(let inMs) = try nodeB.claimDue(drawId: draw.drawId) else { Issue.record("taken while held"); return }
        #expect(inMs > 0 && inMs <= 400)
        #expect(try nodeB.claim(drawId: draw.drawId) == nil, "no cancel while a node starts it")
        #expect(try nodeB.scheduledDraws() == [], "starting, not waiting")
        #expect(try nodeA.renewClaim(drawId: draw.drawId), "the holder keeps it")
        #expect(try nodeA.schedule(Self.draw(8, room: "quiz", at: 90_000)), "its room may schedule the next one")

        // A never starts it (killed): the lease lapses and B takes it.
        let deadline = Date().addingTimeInterval(5)
        var got = try nodeB.claimDue(drawId: draw.drawId)
        while got != .taken(draw), Date() < deadline {
            guard case .held = got else { break }
            Thread.sleep(forTimeInterval: 0.05)
            got = try nodeB.claimDue(drawId: draw.drawId)
        }
        #expect(got == .taken(draw), "B takes the lapsed claim")
        #expect(try !nodeA.renewClaim(drawId: draw.drawId), "A's claim is no longer A's")
        try nodeA.finishClaim(drawId: draw.drawId)
        #expect(try nodeA.scheduledDraw(id: draw.drawId) == draw, "A cannot finish B's claim")
        try nodeB.finishClaim(drawId: draw.drawId)
        #expect(try nodeA.scheduledDraw(id: draw.drawId) == nil)
        #expect(try nodeA.claimDue(drawId: draw.drawId) == .gone)
    }

    /// A node stopping with a claimed draw it did not start gives the claim back: another node
    /// takes the draw at once, not a lease later.
    @Test func aReturnedClaimIsTakenByAnotherNodeAtOnce() throws {
        let server = try RedisServerProcess()
        let (nodeA, nodeB) = Self.twoNodes(on: server, claimLeaseMs: 60_000)
        defer { nodeA.connection.close(); nodeB.connection.close() }
        let draw = Self.draw(9, room: "quiz", at: 1_000)
        #expect(try nodeA.schedule(draw) && nodeA.claimDue(drawId: draw.drawId) == .taken(draw))
        try nodeA.returnClaim(draw)
        #expect(try nodeB.scheduledDraws() == [draw], "waiting again")
        #expect(try nodeB.claimDue(drawId: draw.drawId) == .taken(draw))
    }

    /// The draw leaves the store with its first recorded step past `loading`, in that step's
    /// script: no node can take a draw that runs, however long after its claim lapsed. One whose
    /// end was claimed (it ran and ended) is taken by nobody either.
    @Test func aScheduledDrawLeavesTheStoreWithItsFirstFencedStep() throws {
        let server = try RedisServerProcess()
        let configuration = server.configuration()
        let nodeA = RedisRoomStore(connection: RedisConnection(configuration: configuration), claimant: "a", claimLeaseMs: 60_000)
        let log = RedisFencedDrawLog(connection: RedisConnection(configuration: configuration))
        defer { nodeA.connection.close(); log.connection.close() }
        let started = Self.draw(10, room: "quiz", at: 1_000), ended = Self.draw(11, room: "party", at: 1_000)
        #expect(try nodeA.schedule(started) && nodeA.schedule(ended))
        #expect(try nodeA.claimDue(drawId: started.drawId) == .taken(started))

        func entry(_ kind: String, _ draw: ScheduledDraw) -> FencedEntry {
            FencedEntry(room: draw.room, token: 1, kind: kind, drawId: draw.drawId, index: nil, viewPart: [],
                        escrow: .keep, endWire: nil, payload: [])
        }
        _ = try log.append(entry("loading", started))
        #expect(try nodeA.renewClaim(drawId: started.drawId), "still kept while it loads")
        _ = try log.append(entry("started", started))
        #expect(try nodeA.scheduledDraw(id: started.drawId) == nil)
        #expect(try !nodeA.renewClaim(drawId: started.drawId))

        _ = try nodeA.connection.command("SET", nodeA.keyspace.drawEndKey(drawId: ended.drawId), "1")
        #expect(try nodeA.claimDue(drawId: ended.drawId) == .gone)
        #expect(try nodeA.scheduledDraws() == [])
    }
}

/// This machine's clock off by `skewMs`: the node whose clock is wrong.
private struct SkewedClock: DrawClock {
    let skewMs: Double
    func epochMillis() -> Double { Date().timeIntervalSince1970 * 1_000 + skewMs }
    func monotonicNanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}
