import DrawCore
import DrawData
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// `GET /api/rooms/ROOM/draws` and `GET /api/draws/ID` over real HTTP.
    @Suite struct HistoryAPITests {
        @Test func pagesARoomNewestFirstWithACursor() throws {
            let f = try RecordingFixture()
            let running = f.server
            var ids: [String] = []
            for _ in 0..<3 { ids.append(try f.drawInLobby().drawId) }

            let first = try TestHTTP.getJSON(port: running.port, "/api/rooms/lobby/draws?limit=2")
            #expect(first.status == 200)
            #expect(first.json["room"] as? String == "lobby")
            let firstDraws = try #require(first.json["draws"] as? [[String: Any]])
            #expect(firstDraws.map { $0["drawId"] as? String } == [ids[2], ids[1]])
            let cursor = try #require(first.json["nextCursor"] as? String)

            let second = try TestHTTP.getJSON(port: running.port, "/api/rooms/lobby/draws?limit=2&cursor=\(cursor)")
            #expect(second.status == 200)
            #expect((second.json["draws"] as? [[String: Any]])?.map { $0["drawId"] as? String } == [ids[0]])
            #expect(second.json["nextCursor"] is NSNull)

            let all = try TestHTTP.getJSON(port: running.port, "/api/rooms/lobby/draws")
            let summaries = try #require(all.json["draws"] as? [[String: Any]])
            #expect(summaries.count == 3)
            for s in summaries {
                #expect(s["status"] as? String == "finished")
                #expect(s["room"] as? String == "lobby")
                #expect(s["entrantCount"] as? Int == RunningServer.players.count)
                #expect(s["roundsShown"] as? Int == 10)
                #expect(["winner", "void"].contains(s["outcome"] as? String ?? ""))
                #expect((s["commitment"] as? String)?.count == 64)
                #expect(s["seed"] == nil, "a summary never carries a seed")
            }
            #expect(running.stop())
        }

        @Test func refusesBadPagesAndUnknownRoomsAndDraws() throws {
            let f = try RecordingFixture()
            let running = f.server, port = f.port
            func errorCode(_ method: String, _ path: String) throws -> (Int, String?) {
                let r = try TestHTTP.request(port: port, method, path)
                return (r.status, (r.json?["error"] as? [String: Any])?["code"] as? String)
            }
            for query in ["limit=0", "limit=101", "limit=abc", "limit=", "limit=%2B5", "limit=99999999999"] {
                #expect(try errorCode("GET", "/api/rooms/lobby/draws?\(query)") == (400, "bad_limit"), "\(query)")
            }
            for query in ["cursor=abc", "cursor=0", "cursor=-1", "cursor=", "limit=5&cursor=1x"] {
                #expect(try errorCode("GET", "/api/rooms/lobby/draws?\(query)") == (400, "bad_cursor"), "\(query)")
            }
            #expect(try errorCode("GET", "/api/rooms/nobody-here/draws") == (404, "unknown_room"))
            #expect(try errorCode("GET", "/api/rooms/Not_A_Name/draws") == (404, "unknown_room"))
            #expect(try errorCode("GET", "/api/draws/not-a-draw-id") == (404, "unknown_draw"))
            #expect(try errorCode("GET", "/api/draws/" + String(repeating: "0", count: 32)) == (404, "unknown_draw"))
            #expect(try errorCode("GET", "/api/draws/" + String(repeating: "A", count: 32)) == (404, "unknown_draw"))
            #expect(try errorCode("PUT", "/api/rooms/lobby/draws") == (405, "method_not_allowed"))
            #expect(try errorCode("DELETE", "/api/draws/" + String(repeating: "0", count: 32)) == (405, "method_not_allowed"))

            // A live room without draws has an empty history, not a 404.
            _ = try TestHTTP.createRoom(port: port, name: "empty-room")
            let empty = try TestHTTP.getJSON(port: port, "/api/rooms/empty-room/draws")
            #expect(empty.status == 200)
            #expect((empty.json["draws"] as? [Any])?.isEmpty == true)
            #expect(empty.json["nextCursor"] is NSNull)
            #expect(running.stop())
        }

        @Test func aRoomsHistoryOutlivesTheRoomAcrossARestart() throws {
            let dir = try TestDataDirectory()
            let first = try RunningServer(store: try dir.open())
            let key = try TestHTTP.createRoom(port: first.port, name: "team-a")
            let ws = try TestWebSocket.joined(port: first.port, room: "team-a")
            try TestHTTP.startDraw(port: first.port, room: "team-a", key: key)
            let t = try DrawTranscript.read(from: ws)
            #expect(first.stop())

            // The new server knows only the lobby; the store still knows team-a.
            let second = try RunningServer(store: try dir.open())
            let page = try TestHTTP.getJSON(port: second.port, "/api/rooms/team-a/draws")
            #expect(page.status == 200)
            #expect((page.json["draws"] as? [[String: Any]])?.map { $0["drawId"] as? String } == [t.drawId])
            // Past its last draw the page is empty but the room is still known.
            let past = try TestHTTP.getJSON(port: second.port, "/api/rooms/team-a/draws?cursor=1")
            #expect(past.status == 200)
            #expect((past.json["draws"] as? [Any])?.isEmpty == true)
            #expect(try TestHTTP.getJSON(port: second.port, "/api/rooms/team-b/draws").status == 404)
            let record = try TestHTTP.getJSON(port: second.port, "/api/draws/\(t.drawId)")
            #expect(record.json["status"] as? String == "finished")
            #expect(record.json["room"] as? String == "team-a")
            #expect(record.json["verified"] as? Bool == true)
            #expect(second.stop())
        }

        @Test func withoutAStoreThereIsNoHistory() throws {
            let running = try RunningServer()
            let history = try TestHTTP.request(port: running.port, "GET", "/api/rooms/lobby/draws")
            #expect(history.status == 404)
            #expect((history.json?["error"] as? [String: Any])?["code"] as? String == "not_found")
            let record = try TestHTTP.request(port: running.port, "GET", "/api/draws/" + String(repeating: "0", count: 32))
            #expect(record.status == 404)
            // Draws still run, unrecorded.
            let ws = try TestWebSocket.joined(port: running.port, room: "lobby")
            #expect(try TestHTTP.startDraw(port: running.port, room: "lobby", key: running.lobbyKey) == 202)
            #expect(try DrawTranscript.read(from: ws).endType == "finished")
            #expect(running.stop())
        }
    }
}
