import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// The server reports what happened through swift-metrics.
    @Suite struct ServerMetricsTests {
        @Test func aDrawIsCounted() throws {
            let metrics = RecordingMetrics.shared
            let startedBefore = metrics.counter("livedraw_draws_started_total")
            let latenessBefore = metrics.recorded("livedraw_round_lateness_seconds").count
            let outcomes = ["winner", "void"].map { "livedraw_draws_finished_total{outcome=\($0)}" }
            let finishedBefore = outcomes.map(metrics.counter).reduce(0, +)
            let sentBefore = metrics.counter("livedraw_messages_sent_total")

            let running = try RunningServer()
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            _ = try TestHTTP.request(port: running.port, "POST", "/api/rooms/lobby/draws",
                                     headers: ["Authorization": "Bearer \(running.lobbyKey)"], json: "")
            _ = try ws.receive(type: "finished")
            #expect(running.stop()) // flushes the batched message counter

            #expect(metrics.counter("livedraw_draws_started_total") == startedBefore + 1)
            #expect(outcomes.map(metrics.counter).reduce(0, +) == finishedBefore + 1)
            let lateness = metrics.recorded("livedraw_round_lateness_seconds").dropFirst(latenessBefore)
            #expect(lateness.count == 10)
            #expect(lateness.allSatisfy { $0 >= 0 && $0 < 1e9 })
            // snapshot, loading, started, 10 rounds, finished (+ presence, aborted-free close).
            #expect(metrics.counter("livedraw_messages_sent_total") - sentBefore >= 14)
            #expect(metrics.recorded("livedraw_rooms").last ?? 0 >= 1)
        }

        /// A turn of the service loop that burns 30 ms of CPU shows as one turn of at least 30 ms
        /// of CPU; the turns around it, the loop idling, are recorded too.
        @Test func aBusyServiceTurnIsMeasuredInCPUTime() throws {
            let metrics = RecordingMetrics.shared
            let running = try RunningServer()
            defer { running.stop() }
            // An answered request: the loop is turning (what is posted before it starts runs
            // before its first turn, outside any).
            _ = try TestHTTP.request(port: running.port, "GET", "/healthz")
            let busy = DispatchSemaphore(value: 0)
            running.server.onServiceThread { _ in
                let start = ThreadCPUClock.nanos()
                var spins = 0
                while ThreadCPUClock.nanos() - start < 30_000_000 { spins &+= 1 }
                busy.signal()
            }
            #expect(busy.wait(timeout: .now() + 10) == .success)
            // The turn is recorded when it returns, after the semaphore: the next turn (the
            // housekeeping tick at the latest, 100 ms) finds it recorded.
            let busyTurn: (Double) -> Bool = { $0 >= 30e6 && $0 < 10e9 }   // nanoseconds, as the backend gets them
            let deadline = Date().addingTimeInterval(10)
            while !metrics.recorded(ServerMetrics.serviceTurnLabel).contains(where: busyTurn), Date() < deadline {
                _ = try TestHTTP.request(port: running.port, "GET", "/healthz")
            }
            let turns = metrics.recorded(ServerMetrics.serviceTurnLabel)
            #expect(turns.contains(where: busyTurn), "no turn of 30 ms of CPU among \(turns.count)")
            #expect(turns.allSatisfy { $0 >= 0 })
        }

        @Test func aFailedLoadIsCountedByCode() throws {
            let metrics = RecordingMetrics.shared
            let key = "livedraw_draws_failed_total{code=no_players}"
            let before = metrics.counter(key)
            let running = try RunningServer(loadPlayers: { () async throws(DrawError) -> MergeResult in
                throw DrawError.noPlayers(warnings: [])
            })
            defer { running.stop() }
            let ws = try TestWebSocket(port: running.port, path: "/ws/lobby")
            _ = try ws.receive(type: "snapshot")
            try ws.send(text: #"{"type":"start","hostKey":"\#(running.lobbyKey)"}"#)
            let failed = try ws.receive(type: "failed")
            #expect(failed["code"] as? String == "no_players")
            #expect(metrics.counter(key) == before + 1)
            // The room is idle again: a new start is accepted.
            try ws.send(text: #"{"type":"start","hostKey":"\#(running.lobbyKey)"}"#)
            _ = try ws.receive(type: "loading")
        }
    }
}
