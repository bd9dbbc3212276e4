import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

/// The room store wired into the server, on a real SQLite store: a 201 means the room is on disk;
/// a room freed from memory comes back from the store with its key; expiry follows the server's
/// clock (moved on, not slept through) and spares a room being watched.
@Suite struct DurableRoomTests {
    @Test func a201MeansTheRoomIsKeptWithTheHashOfItsKey() throws {
        let dir = try TestDataDirectory()
        let store = try dir.open()
        let running = try RunningServer(store: store, roomStore: store)
        defer { running.stop() }
        let key = try TestHTTP.createRoom(port: running.port, name: "kept")
        // The store serialises its callers itself; the server's storage thread is done with it.
        let record = try #require(try store.room(named: "kept"))
        #expect(record.keyHash == HostKeyHash(of: key))
        #expect(record.keyHash.hex != key)
        // The duplicate check asks the store, not only memory.
        #expect(try TestHTTP.request(port: running.port, "POST", "/api/rooms", json: #"{"name":"kept"}"#).status == 409)
        #expect(try store.roomCount() == 1, "the lobby is not a stored room")
    }

    @Test func aRoomFreedFromMemoryComesBackFromTheStoreWithItsKey() throws {
        let dir = try TestDataDirectory()
        let store = try dir.open()
        let clock = ShiftableClock()
        let running = try RunningServer(configure: { $0.roomIdleMs = 60_000 }, store: store, roomStore: store, clock: clock)
        defer { running.stop() }
        let p = running.port
        let key = try TestHTTP.createRoom(port: p, name: "napping")
        clock.advance(seconds: 61)
        // Creating a room sweeps first: "napping" leaves memory now…
        _ = try TestHTTP.createRoom(port: p, name: "other")
        // …and every lookup brings it back.
        #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/napping").status == 200)
        clock.advance(seconds: 61)
        _ = try TestHTTP.createRoom(port: p, name: "third")
        #expect(try TestHTTP.startDraw(port: p, room: "napping", key: key) == 202)
        let viewer = try TestWebSocket(port: p, path: "/ws/napping")
        #expect(try viewer.receive(type: "snapshot")["room"] as? String == "napping")
    }

    @Test func roomsUnusedPastTheExpiryGoButAWatchedOneStays() throws {
        let dir = try TestDataDirectory()
        let store = try dir.open()
        let clock = ShiftableClock()
        let running = try RunningServer(configure: { $0.roomExpiryMs = 86_400_000 }, store: store, roomStore: store,
                                        clock: clock)
        defer { running.stop() }
        let p = running.port
        let oldKey = try TestHTTP.createRoom(port: p, name: "old")
        _ = try TestHTTP.createRoom(port: p, name: "watched")
        let viewer = try TestWebSocket(port: p, path: "/ws/watched")
        _ = try viewer.receive(type: "snapshot")
        clock.advance(seconds: 2 * 86_400)
        // The housekeeping tick asks the store; no request is needed.
        #expect(try TestHTTP.waitForRoom(p, "old") { $0.status == 404 })
        #expect(try TestHTTP.startDraw(port: p, room: "old", key: oldKey) == 404)
        #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/watched").status == 200)
        #expect(try store.room(named: "watched") != nil, "a watched room is touched before it could expire")
        #expect(try store.room(named: "old") == nil)
        #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/lobby").status == 200)
    }
}
