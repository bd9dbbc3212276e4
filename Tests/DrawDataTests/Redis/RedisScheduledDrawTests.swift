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
}
