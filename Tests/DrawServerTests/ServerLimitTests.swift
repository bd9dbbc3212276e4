import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Real-socket checks of the limits that protect the room and the host: what the Python e2e
    /// suite cannot configure (tiny queues, origins) or should not have to (symlinks on disk).
    @Suite struct ServerLimitTests {
        @Test func staticFilesNeverLeaveThePublicFolder() throws {
            let running = try RunningServer()
            defer { running.stop() }
            let outside = running.publicDir.deletingLastPathComponent().appendingPathComponent("livedraw-secret-\(UUID().uuidString).txt")
            try Data("secret".utf8).write(to: outside)
            defer { try? FileManager.default.removeItem(at: outside) }
            try FileManager.default.createSymbolicLink(at: running.publicDir.appendingPathComponent("escape.txt"),
                                                       withDestinationURL: outside)
            let name = outside.lastPathComponent
            for path in ["/../\(name)", "/%2e%2e/\(name)", "/%2E%2E%2F\(name)", "/..%2f\(name)", "/%252e%252e/\(name)",
                         "/..\\\(name)", "/escape.txt", "/.%2e/\(name)", "//..//\(name)"] {
                let r = try TestHTTP.request(port: running.port, "GET", path)
                #expect(r.status == 404, "\(path) answered \(r.status)")
                #expect(!r.text.contains("secret"), "\(path) leaked the file")
            }
            let index = try TestHTTP.request(port: running.port, "GET", "/")
            #expect(index.status == 200)
            #expect(index.headers["content-type"] == "text/html; charset=utf-8")
            #expect(index.headers["x-content-type-options"] == "nosniff")
            #expect(index.headers["content-security-policy"] != nil)
        }

        @Test func apiStatuses() throws {
            let running = try RunningServer()
            defer { running.stop() }
            let p = running.port
            let created = try TestHTTP.request(port: p, "POST", "/api/rooms", json: #"{"name":"team-a"}"#)
            #expect(created.status == 201)
            let key = try #require(created.json?["hostKey"] as? String)
            #expect(key.count == 48)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: #"{"name":"team-a"}"#).status == 409)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: #"{"name":"Team A"}"#).status == 400)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: "{nope").status == 400)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms", json: String(repeating: " ", count: 17_000)).status == 413)
            #expect(try TestHTTP.request(port: p, "PUT", "/api/rooms/team-a").status == 405)
            #expect(try TestHTTP.request(port: p, "DELETE", "/api/rooms/team-a").status == 401, "deleting needs the key")
            #expect(try TestHTTP.request(port: p, "GET", "/api/rooms/nope").status == 404)
            let draws = "/api/rooms/team-a/draws"
            #expect(try TestHTTP.request(port: p, "POST", draws, json: "").status == 401)
            #expect(try TestHTTP.request(port: p, "POST", draws, headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "").status == 403)
            #expect(try TestHTTP.request(port: p, "POST", "/api/rooms/nope/draws", headers: ["Authorization": "Bearer \(key)"], json: "").status == 404)
            #expect(try TestHTTP.request(port: p, "POST", draws, headers: ["Authorization": "Bearer \(key)"], json: "").status == 202)
            let again = try TestHTTP.request(port: p, "POST", draws, headers: ["Authorization": "Bearer \(key)"], json: "")
            #expect(again.status == 409)
            #expect((again.json?["error"] as? [String: Any])?["code"] as? String == "draw_running")
            let snapshot = try TestHTTP.request(port: p, "GET", "/api/rooms/team-a")
            #expect(snapshot.status == 200)
            #expect(snapshot.json?["type"] == nil)
            #expect(!snapshot.text.contains(key), "a snapshot must never carry the host key")
        }

        @Test func unknownRoomGetsAnErrorThen4404() throws {
            let running = try RunningServer()
            defer { running.stop() }
            let ws = try TestWebSocket(port: running.port, path: "/ws/nope")
            let error = try ws.receiveJSON()
            #expect(error["type"] as? String == "error")
            #expect(error["code"] as? String == "unknown_room")
            #expect(try ws.receiveClose().code == 4404)
        }

        @Test func foreignOriginIsRefusedBeforeTheUpgrade() throws {
            let running = try RunningServer { $0.allowedOrigins = ["http://good.example"] }
            defer { running.stop() }
            #expect(throws: TestWebSocket.HandshakeRefused(status: 403)) {
                _ = try TestWebSocket(port: running.port, path: "/ws/lobby", origin: "http://evil.example")
            }
            _ = try TestWebSocket(port: running.port, path: "/ws/lobby", origin: "http://good.example")
            _ = try TestWebSocket(port: running.port, path: "/ws/lobby") // scripts send no Origin
        }

        @Test func aSlowClientIsClosedWith4408AndDoesNotStallTheRoom() throws {
            // A `started` message of ~4 MB (more than loopback's socket buffers absorb) and a queue
            // of 8 messages: a client that stops reading falls behind within the draw, while one
            // that reads has 1.6 s to take the big message in.
            let many = (1...40_000).map {
                Player(userId: $0, name: "Player number \($0) with a long name", username: "user\($0)",
                       regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false)
            }
            let running = try RunningServer(configure: {
                                                $0.outboundQueueLimit = 8
                                                $0.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 200))!
                                            },
                                            loadPlayers: { MergeResult(players: many, warnings: []) })
            defer { running.stop() }
            let slow = try TestWebSocket(port: running.port, path: "/ws/lobby", receiveBuffer: 2048)
            let fast = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try fast.receive(type: "snapshot")
            let accepted = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                                headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "")
            #expect(accepted.status == 202)
            // The fast client sees the whole draw, on time, whatever the slow one does.
            var rounds: [Int] = []
            while true {
                let m = try fast.receiveJSON()
                if m["type"] as? String == "round" { rounds.append(m["round"] as? Int ?? 0) }
                if m["type"] as? String == "finished" { break }
            }
            #expect(rounds == Array(1...10))
            // The slow client, reading at last, finds its connection closed as too slow.
            var sawFinished = false
            var close: Int?
            while close == nil {
                do {
                    switch try slow.receive() {
                    case .close(let code, _): close = code ?? -1
                    case .text(let t): sawFinished = sawFinished || t.contains(#""type":"finished""#)
                    case .binary: break
                    }
                } catch TestSocket.Failure.closed {
                    close = -1 // dropped at the close deadline: also acceptable, but see below
                }
            }
            #expect(close == 4408)
            #expect(!sawFinished)
        }

        @Test func shutdownAbortsARunningDrawThenCloses1001() throws {
            let running = try RunningServer { $0.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 300))! }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            _ = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                     headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "")
            let started = try ws.receive(type: "started")
            let round1 = try ws.receive(type: "round")
            #expect(round1["round"] as? Int == 1)
            running.server.stop()
            let aborted = try ws.receive(type: "aborted")
            #expect(aborted["reason"] as? String == "server_shutdown")
            #expect(aborted["drawId"] as? String == started["drawId"] as? String)
            #expect((aborted["seed"] as? String)?.count == 64)
            #expect((aborted["roundsShown"] as? Int ?? 0) >= 1)
            #expect(try ws.receiveClose().code == 1001)
            #expect(running.waitForRunToReturn(timeout: 10))
        }
    }
}

extension RealSocketTests {
    /// Connection-level limits: total connections and inbound frame size across fragments.
    @Suite struct ServerConnectionLimitTests {
        @Test func connectionsBeyondTheLimitGet503() throws {
            let running = try RunningServer { $0.maxConnections = 2 }
            defer { running.stop() }
            let a = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try a.receive(type: "snapshot")
            #expect(try TestHTTP.request(port: running.port, "GET", "/healthz").status == 200)
            let b = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try b.receive(type: "snapshot")
            let refused = try TestHTTP.request(port: running.port, "GET", "/healthz")
            #expect(refused.status == 503)
            #expect(refused.text.contains("too_many_connections"))
            #expect(throws: TestWebSocket.HandshakeRefused(status: 503)) {
                _ = try TestWebSocket(port: running.port, path: "/ws/lobby")
            }
        }

        @Test func aMessageOverTheLimitAcrossFragmentsCloses1009() throws {
            let running = try RunningServer { $0.maxMessageBytes = 100 }
            defer { running.stop() }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            // Each fragment is small; together they pass the limit.
            try ws.send(opcode: 1, Array(repeating: UInt8(ascii: " "), count: 60), fin: false)
            try ws.send(opcode: 0, Array(repeating: UInt8(ascii: " "), count: 60), fin: true)
            #expect(try ws.receiveClose().code == 1009)
        }

        @Test func fragmentsWithinTheLimitAreReassembled() throws {
            let running = try RunningServer { $0.maxMessageBytes = 100 }
            defer { running.stop() }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            try ws.send(opcode: 1, Array(#"{"type":"pi"#.utf8), fin: false)
            try ws.send(opcode: 0, Array(#"ng","id":42}"#.utf8), fin: true)
            let pong = try ws.receive(type: "pong")
            #expect(pong["id"] as? Int == 42)
        }
    }
}
