import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// While a draw's rounds are shown, no `presence` fan-out competes with them: each `round`
    /// carries the viewer count, and a `presence` follows the draw only if the count changed.
    @Suite struct PresenceDuringDrawTests {
        @Test func roundsCarryTheCountAndPresenceWaitsForTheEnd() throws {
            // Long enough gaps that the second viewer joins while rounds are still to come.
            let running = try RunningServer(configure: {
                $0.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 60))!
            })
            defer { running.stop() }
            let first = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try first.receive(type: "snapshot")
            try first.send(text: #"{"type":"start","hostKey":"\#(running.lobbyKey)"}"#)
            let round1 = try first.receive(type: "round")
            #expect(round1["viewers"] as? Int == 1)

            // A joiner mid-draw: its snapshot says how many rounds it missed.
            let second = try TestWebSocket(port: running.port, path: "/ws/lobby")
            let snapshot = try second.receive(type: "snapshot")
            #expect(snapshot["viewers"] as? Int == 2)
            let shown = try #require(((snapshot["draw"] as? [String: Any])?["rounds"] as? [Any])?.count)
            try #require(shown < 10, "the draw ended before the joiner arrived: nothing to check")

            // The first viewer: rounds, no presence, until the end; the count changes with the join.
            var seen: [[String: Any]] = []
            while true {
                let m = try first.receiveJSON()
                seen.append(m)
                if m["type"] as? String == "finished" { break }
            }
            #expect(!seen.contains { $0["type"] as? String == "presence" })
            let later = seen.filter { $0["type"] as? String == "round" && ($0["round"] as? Int ?? 0) > shown }
            #expect(!later.isEmpty)
            #expect(later.allSatisfy { $0["viewers"] as? Int == 2 })

            // After the draw, presence is back: a leave is announced.
            try second.send(opcode: 8, [0x03, 0xE8]) // close, 1000
            let presence = try first.receive(type: "presence")
            #expect(presence["viewers"] as? Int == 1)
        }
    }
}
