import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Issue 11, finding 3 on a real server: API POSTs must be JSON, room creation is budgeted
    /// per client address, idle rooms are freed, and at the room limit the least recently used
    /// idle room makes way. Time is moved with `ShiftableClock`, never waited for.
    @Suite struct RoomLimitTests {
        private func errorCode(_ r: TestHTTP.Response) -> String? {
            (r.json?["error"] as? [String: Any])?["code"] as? String
        }

        @Test func apiPostsThatAreNotJSONGet415AndChangeNothing() throws {
            let running = try RunningServer()
            defer { running.stop() }
            let p = running.port
            let body = Array(#"{"name":"sneaky"}"#.utf8)
            // What a page on another site can send without asking first, and no type at all.
            for type in [nil, "text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded",
                         "multipart/form-data; boundary=x"] {
                let r = try TestHTTP.request(port: p, "POST", "/api/rooms", headers: type.map { ["Content-Type": $0] } ?? [:],
                                             body: body)
                #expect(r.status == 415, "\(type ?? "no type") answered \(r.status)")
                #expect(errorCode(r) == "unsupported_media_type")
            }
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/sneaky").status == 404)
            // Starting a draw: the right key does not help a request that is not JSON.
            let start = try TestHTTP.request(port: p, "POST", "/api/rooms/lobby/draws",
                                             headers: ["Authorization": "Bearer \(running.lobbyKey)", "Content-Type": "text/plain"],
                                             body: [])
            #expect(start.status == 415)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/lobby").json?["draw"] is NSNull)
            let json = try TestHTTP.request(port: p, "POST", "/api/rooms", headers: ["Content-Type": "Application/JSON; charset=utf-8"],
                                            json: #"{"name":"proper"}"#)
            #expect(json.status == 201)
        }

        @Test func roomCreationIsBudgetedPerAddressWithRetryAfter() throws {
            let clock = ShiftableClock()
            let running = try RunningServer(configure: {
                $0.roomCreationBurst = 3
                $0.roomCreationPerMinute = 1
            }, clock: clock)
            defer { running.stop() }
            let p = running.port
            for _ in 0..<3 { #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{}").status == 201) }
            let refused = try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{}")
            #expect(refused.status == 429)
            #expect(errorCode(refused) == "rate_limited")
            let retryAfter = try #require(Int(refused.headers["retry-after"] ?? ""))
            #expect((1...60).contains(retryAfter))
            // Another client is not held back by this one.
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{}", source: "127.0.0.2").status == 201)
            // Other API calls from the limited address are not affected.
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/lobby").status == 200)
            // A minute later the first address has one more.
            clock.advance(seconds: 60)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{}").status == 201)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{}").status == 429)
        }

        @Test func idleRoomsAreFreedAndWatchedRoomsAndTheLobbyStay() throws {
            let clock = ShiftableClock()
            let running = try RunningServer(configure: { $0.roomIdleMs = 60_000 }, clock: clock)
            defer { running.stop() }
            let p = running.port
            let oldKey = try TestHTTP.createRoom(port: p, name: "old")
            _ = try TestHTTP.createRoom(port: p, name: "watched")
            var viewer: TestWebSocket? = try TestWebSocket(port: p, path: "/ws/watched")
            _ = try viewer?.receive(type: "snapshot")
            clock.advance(seconds: 61)
            // Creating a room sweeps first, so this is decided now, not at the next tick.
            _ = try TestHTTP.createRoom(port: p, name: "fresh")
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/old").status == 404)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/watched").status == 200)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/lobby").status == 200)
            // A freed room is gone for good: its key opens nothing, its viewers get 4404.
            #expect(try TestHTTP.startDraw(port: p, room: "old", key: oldKey) == 404)
            let late = try TestWebSocket(port: p, path: "/ws/old")
            #expect(try late.receiveClose().code == 4404)
            // The watched room's idle time starts when its last viewer leaves; the housekeeping
            // tick frees it without any request.
            viewer = nil
            #expect(try TestHTTP.waitForRoom(p, "watched") { $0.json?["viewers"] as? Int == 0 })
            clock.advance(seconds: 61)
            #expect(try TestHTTP.waitForRoom(p, "watched") { $0.status == 404 })
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/lobby").status == 200)
        }

        @Test func atTheRoomLimitTheLeastRecentlyUsedIdleRoomMakesWay() throws {
            let running = try RunningServer(configure: { $0.maxRooms = 3 }) // the lobby and two
            defer { running.stop() }
            let p = running.port
            _ = try TestHTTP.createRoom(port: p, name: "a")
            _ = try TestHTTP.createRoom(port: p, name: "b")
            _ = try TestHTTP.createRoom(port: p, name: "c")
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/a").status == 404)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/b").status == 200)
            // Both rooms in use (and the lobby never makes way): now creating is refused.
            let b = try TestWebSocket(port: p, path: "/ws/b")
            _ = try b.receive(type: "snapshot")
            var c: TestWebSocket? = try TestWebSocket(port: p, path: "/ws/c")
            _ = try c?.receive(type: "snapshot")
            let full = try TestHTTP.request(port: p, "POST", "/api/rooms", json: #"{"name":"d"}"#)
            #expect(full.status == 503)
            #expect(errorCode(full) == "too_many_rooms")
            // Once c is unused again, it makes way.
            c = nil
            #expect(try TestHTTP.waitForRoom(p, "c") { $0.json?["viewers"] as? Int == 0 })
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: #"{"name":"d"}"#).status == 201)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/c").status == 404)
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/b").status == 200)
            withExtendedLifetime(b) {}
        }
    }
}
