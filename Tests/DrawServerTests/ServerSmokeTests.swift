import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Real sockets, real lws: one draw watched end to end, then a graceful stop.
    @Suite struct ServerSmokeTests {
        @Test func drawIsBroadcastInOrderAndStopClosesWith1001() throws {
            let running = try RunningServer()
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby", subprotocol: "live-draw.v1")
            #expect(ws.subprotocol == "live-draw.v1")

            let snapshot = try ws.receiveJSON()
            #expect(snapshot["type"] as? String == "snapshot")
            #expect(snapshot["room"] as? String == "lobby")
            #expect(snapshot["draw"] is NSNull)

            let accepted = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                                headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "{}")
            #expect(accepted.status == 202)
            #expect(accepted.json?["status"] as? String == "loading")

            var types: [String] = []
            var rounds: [Int] = []
            var sentAts: [Double] = []
            var finished: [String: Any]?
            while finished == nil {
                let m = try ws.receiveJSON()
                let type = m["type"] as? String ?? "?"
                if type == "presence" { continue } // coalesced viewer counts may interleave
                types.append(type)
                if type == "round" {
                    rounds.append(m["round"] as? Int ?? -1)
                    sentAts.append(m["sentAt"] as? Double ?? 0)
                }
                if type == "finished" { finished = m }
            }
            #expect(types == ["loading", "started"] + Array(repeating: "round", count: 10) + ["finished"])
            #expect(rounds == Array(1...10))
            #expect(sentAts == sentAts.sorted())
            #expect((finished?["seed"] as? String)?.count == 64)
            #expect(finished?["picks"] as? [Int] != nil)

            #expect(running.stop())
            var close: TestWebSocket.Frame?
            while close == nil {
                let f = try ws.receive()
                if case .close = f { close = f }
            }
            #expect(close == .close(code: 1001, reason: "server shutting down"))
        }
    }
}
