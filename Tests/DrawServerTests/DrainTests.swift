import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// `drain()`, the first SIGTERM: the running draw finishes, new draws and `/healthz` say
    /// `draining` (503), then the server stops by itself (docs/PROTOCOL.md §5.5).
    @Suite struct DrainTests {
        @Test func drainLetsTheRunningDrawFinishThenStops() throws {
            // 3 s of rounds left: the health poll and the refused start must land while the draw
            // still runs (with 0.6 s, a loaded machine saw the draw end and the server stop first).
            let (running, ws, started) = try drawAtRound1(rounds: 10, intervalMs: 300, graceMs: 10_000)
            running.server.drain()

            let health = try waitForHealth(running.port, status: 503)
            #expect(health.text == #"{"status":"draining"}"#)
            let refused = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                               headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "")
            #expect(refused.status == 503)
            #expect((refused.json?["error"] as? [String: Any])?["code"] as? String == "draining")

            let finished = try ws.receive(type: "finished")
            #expect(finished["drawId"] as? String == started["drawId"] as? String)
            #expect(try ws.receiveClose().code == 1001)
            #expect(running.waitForRunToReturn(timeout: 10))
        }

        @Test func stopDuringADrainAbortsAtOnce() throws {
            let (running, ws, _) = try drawAtRound1(rounds: 10, intervalMs: 300, graceMs: 60_000)
            running.server.drain()
            _ = try waitForHealth(running.port, status: 503)
            running.server.stop()
            let aborted = try ws.receive(type: "aborted")
            #expect(aborted["reason"] as? String == "server_shutdown")
            #expect(try ws.receiveClose().code == 1001)
            #expect(running.waitForRunToReturn(timeout: 10))
        }

        @Test func drainWithNothingRunningStopsAtOnce() throws {
            let running = try RunningServer { $0.shutdownGraceMs = 60_000 }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            running.server.drain()
            #expect(try ws.receiveClose().code == 1001)
            #expect(running.waitForRunToReturn(timeout: 5))
        }

        /// A server with that schedule and grace, a lobby viewer, and a draw started over HTTP whose
        /// round 1 the viewer has seen; returns the `started` message too.
        private func drawAtRound1(rounds: Int, intervalMs: Int, graceMs: Int) throws
            -> (RunningServer, TestWebSocket, [String: Any]) {
            let running = try RunningServer {
                $0.schedule = RoundSchedule(rounds: rounds, pace: .fixed(intervalMs: intervalMs))!
                $0.shutdownGraceMs = graceMs
            }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            let start = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                             headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "")
            #expect(start.status == 202)
            let started = try ws.receive(type: "started")
            _ = try ws.receive(type: "round")
            return (running, ws, started)
        }

        /// Polls `/healthz` until it answers `status`, for at most a few seconds.
        private func waitForHealth(_ port: Int, status: Int) throws -> TestHTTP.Response {
            let deadline = Date().addingTimeInterval(5)
            while true {
                let response = try TestHTTP.request(port: port, "GET", "/healthz")
                if response.status == status || Date() > deadline { return response }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }
}
