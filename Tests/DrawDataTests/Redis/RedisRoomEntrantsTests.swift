@testable import DrawData
import DrawCore
import Foundation
import Testing

/// A room's own list and settings in cluster mode, on a real redis-server: what one node keeps,
/// another reads whole (the node that runs the draw may be any), and deleting or expiring the
/// room takes the list along.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisRoomEntrantsTests {
    private static let hash = HostKeyHash(of: String(repeating: "a", count: 48))

    private static func list(_ names: [String]) -> RoomEntrants {
        let day = CalendarDate(year: 2026, month: 1, day: 2)!
        return RoomEntrants(players: names.enumerated().map {
            Player(userId: $0.offset + 1, name: $0.element, username: "", regDate: day, isVoid: false)
        }, warnings: [.duplicateName(userId: 2, firstUserId: 1)], sources: EntrantsOrigin.plainText)
    }

    @Test func aListKeptByOneNodeIsReadWholeByAnother() throws {
        let server = try RedisServerProcess()
        let nodeA = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        let nodeB = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { nodeA.connection.close(); nodeB.connection.close() }
        try nodeA.createRoom(RoomRecord(name: "quiz", keyHash: Self.hash, createdAt: 1_000))

        let list = Self.list(["Ann", "Ann", "Bö"])
        #expect(try nodeA.replaceEntrants(ofRoom: "quiz", with: list, at: 2_000))
        #expect(try nodeB.entrants(ofRoom: "quiz") == list)
        let room = try #require(try nodeB.room(named: "quiz"))
        #expect(room.entrants == list.summary && room.lastActivityAt == 2_000)

        let settings = RoomSettings(rounds: 3, winners: 2, title: "Spring Giveaway", prize: "A book")
        #expect(try nodeB.replaceSettings(ofRoom: "quiz", with: settings, at: 3_000))
        #expect(try nodeA.room(named: "quiz")?.settings == settings)

        #expect(try nodeB.replaceEntrants(ofRoom: "quiz", with: nil, at: 4_000))
        #expect(try nodeA.entrants(ofRoom: "quiz") == nil)
        #expect(try nodeA.room(named: "quiz")?.entrants == nil)
        #expect(try nodeA.replaceEntrants(ofRoom: "nope", with: list, at: 1) == false)
        #expect(try nodeA.replaceSettings(ofRoom: "nope", with: settings, at: 1) == false)
    }

    @Test func deletingOrExpiringARoomTakesItsListAlong() throws {
        let server = try RedisServerProcess()
        let store = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { store.connection.close() }
        for name in ["gone", "old"] {
            try store.createRoom(RoomRecord(name: name, keyHash: Self.hash, createdAt: 1_000))
            try store.replaceEntrants(ofRoom: name, with: Self.list(["A"]), at: 1_000)
        }
        #expect(try store.deleteRoom(named: "gone"))
        #expect(try store.expireRooms(idleBefore: 1_001, limit: 10).map(\.name) == ["old"])
        for name in ["gone", "old"] {
            let left = try store.connection.command([Array("EXISTS".utf8), Array(store.entrantsKey(room: name).utf8)])
            #expect(left == .integer(0))
        }
    }
}
