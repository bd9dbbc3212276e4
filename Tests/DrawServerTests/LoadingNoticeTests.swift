import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// `ServerConfig.loadingNoticeMs`: a room holds `loading` back and drops it when the draw
    /// starts (or fails) sooner; the room's state says `loading` all along.
    @Suite struct LoadingNoticeTests {
        /// A held gate makes the loading last exactly as long as the test needs.
        private static func server(noticeMs: Int, gate: AsyncGate) throws -> RunningServer {
            try RunningServer(configure: { $0.loadingNoticeMs = noticeMs },
                              loadPlayers: { () async throws(DrawError) -> MergeResult in
                                  await gate.wait()
                                  return MergeResult(players: RunningServer.players, warnings: [])
                              })
        }

        private static func start(_ running: RunningServer) throws {
            let accepted = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                                headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "{}")
            #expect(accepted.status == 202)
            #expect(accepted.json?["status"] as? String == "loading")
        }

        /// Draw messages only: presence may interleave at any time.
        private static func nextDrawMessage(_ ws: TestWebSocket) throws -> [String: Any] {
            while true {
                let m = try ws.receiveJSON()
                if m["type"] as? String != "presence" { return m }
            }
        }

        /// A server whose loading waits for `gate`, a watcher past its snapshot, and a started draw.
        private static func drawWhileLoading(noticeMs: Int, gate: AsyncGate) throws -> (RunningServer, TestWebSocket) {
            let running = try server(noticeMs: noticeMs, gate: gate)
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            try start(running)
            return (running, ws)
        }

        @Test func aQuickLoadSkipsLoadingButTheStateShowsIt() throws {
            let gate = AsyncGate()
            let (running, early) = try Self.drawWhileLoading(noticeMs: 60_000, gate: gate)
            defer { running.stop() }

            // While the players load, the API and a joiner's snapshot already say `loading`...
            let state = try TestHTTP.request(port: running.port, "GET", "/api/rooms/lobby")
            #expect((state.json?["draw"] as? [String: Any])?["phase"] as? String == "loading")
            let late = try TestWebSocket(port: running.port, path: "/ws/lobby")
            let snapshot = try late.receive(type: "snapshot")
            #expect((snapshot["draw"] as? [String: Any])?["phase"] as? String == "loading")

            // ...but the broadcast `loading` is dropped once `started` comes first.
            gate.open()
            for ws in [early, late] {
                #expect(try Self.nextDrawMessage(ws)["type"] as? String == "started")
                #expect(try Self.nextDrawMessage(ws)["type"] as? String == "round")
            }
        }

        @Test func aSlowLoadIsAnnouncedAfterTheNoticeTime() throws {
            let gate = AsyncGate()
            let (running, ws) = try Self.drawWhileLoading(noticeMs: 20, gate: gate)
            defer { running.stop() }

            // The players are held until `loading` has arrived, so only the timer can have sent it.
            let loading = try Self.nextDrawMessage(ws)
            #expect(loading["type"] as? String == "loading")
            #expect(loading["room"] as? String == "lobby")
            gate.open()
            #expect(try Self.nextDrawMessage(ws)["type"] as? String == "started")
        }

        @Test func aFailureBeforeTheNoticeTimeSkipsLoadingToo() throws {
            let running = try RunningServer(configure: { $0.loadingNoticeMs = 60_000 },
                                            loadPlayers: { () async throws(DrawError) -> MergeResult in
                                                throw DrawError.noPlayers(warnings: [])
                                            })
            defer { running.stop() }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            try Self.start(running)
            #expect(try Self.nextDrawMessage(ws)["type"] as? String == "failed")
            // Idle again; the next attempt's `loading` is held and dropped the same way, and the
            // first attempt's never leaks out later.
            try Self.start(running)
            #expect(try Self.nextDrawMessage(ws)["type"] as? String == "failed")
        }
    }
}
