@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The room registry of cluster mode on a real redis-server: what one node keeps, another node
/// (another connection) reads, changes and expires, with the `RoomStore` rules of the SQLite store.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisRoomStoreTests {
    private static let hashA = HostKeyHash(of: String(repeating: "a", count: 48))
    private static let hashB = HostKeyHash(of: String(repeating: "b", count: 48))

    @Test func aRoomCreatedByOneNodeIsReadChangedAndDeletedByAnother() throws {
        let server = try RedisServerProcess()
        let nodeA = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        let nodeB = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { nodeA.connection.close(); nodeB.connection.close() }

        try nodeA.createRoom(RoomRecord(name: "quiz", keyHash: Self.hashA, createdAt: 1_000.5))
        #expect(throws: StorageError.duplicateRoom(name: "quiz")) {
            try nodeB.createRoom(RoomRecord(name: "quiz", keyHash: Self.hashB, createdAt: 2_000))
        }
        let seen = try #require(try nodeB.room(named: "quiz"))
        #expect(seen == RoomRecord(name: "quiz", keyHash: Self.hashA, createdAt: 1_000.5))
        #expect(try nodeB.room(named: "other") == nil)

        // Activity moves forward only.
        #expect(try nodeB.touchRoom(named: "quiz", at: 5_000))
        #expect(try nodeA.touchRoom(named: "quiz", at: 3_000))
        #expect(try nodeA.room(named: "quiz")?.lastActivityAt == 5_000)
        #expect(try nodeA.touchRoom(named: "nope", at: 5_000) == false)

        #expect(try nodeB.replaceKeyHash(ofRoom: "quiz", with: Self.hashB, at: 6_000))
        #expect(try nodeA.room(named: "quiz")?.keyHash == Self.hashB)
        #expect(try nodeA.replaceKeyHash(ofRoom: "nope", with: Self.hashB, at: 6_000) == false)
        #expect(try nodeA.roomCount() == 1)

        #expect(try nodeB.deleteRoom(named: "quiz"))
        #expect(try nodeA.deleteRoom(named: "quiz") == false)
        #expect(try nodeA.room(named: "quiz") == nil)
        #expect(try nodeA.roomCount() == 0)
    }

    @Test func expiryRemovesTheIdlestRoomsFirstInBatches() throws {
        let server = try RedisServerProcess()
        let store = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { store.connection.close() }
        for (i, name) in ["old", "older", "oldest", "fresh"].enumerated() {
            let at = name == "fresh" ? 10_000 : Double(3 - i) * 100
            try store.createRoom(RoomRecord(name: name, keyHash: Self.hashA, createdAt: at))
        }
        let first = try store.expireRooms(idleBefore: 1_000, limit: 2)
        #expect(first.map(\.name) == ["oldest", "older"])
        #expect(first.first?.keyHash == Self.hashA)
        #expect(try store.expireRooms(idleBefore: 1_000, limit: 2).map(\.name) == ["old"])
        #expect(try store.expireRooms(idleBefore: 1_000, limit: 2).isEmpty)
        #expect(try store.roomCount() == 1)
        #expect(try store.room(named: "fresh") != nil)
    }

    @Test func redisAwayIsAStoreFailureNamingRedisNotThePassword() throws {
        let server = try RedisServerProcess(password: "s3cret-pw")
        let store = RedisRoomStore(connection: RedisConnection(configuration: server.configuration()))
        defer { store.connection.close() }
        try store.createRoom(RoomRecord(name: "quiz", keyHash: Self.hashA, createdAt: 1))
        server.kill()
        do {
            _ = try store.room(named: "quiz")
            Issue.record("a read with Redis gone succeeded")
        } catch {
            #expect(error.description.contains("127.0.0.1:\(server.port)"))
            #expect(!error.description.contains("s3cret-pw"))
        }
    }
}
