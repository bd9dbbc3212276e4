import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

extension RealSocketTests {
    /// Issue 11, finding 6: the gate that closes every timer at teardown costs O(1) per timer
    /// (it used to sweep its whole list on each registration), lists exactly the live timers, and
    /// still cancels every one of them on `close()`.
    ///
    /// On a real lws context: a server that is built but never `run()`, so this test's thread is
    /// its service thread and may drive the loop itself (`LwsContext.service`).
    @Suite struct TimerGateTests {
        private func idleServer() throws -> LiveDrawServer {
            var config = ServerConfig()
            config.port = 0
            config.publicDir = FileManager.default.temporaryDirectory.path
            return try LiveDrawServer(config: config, loadPlayers: { MergeResult(players: [], warnings: []) },
                                      random: SystemTestRandom(), clock: SystemTestClock(), logger: Logger(label: "test"))
        }

        @Test func theGateCountsLiveTimersOnly() throws {
            let server = try idleServer()
            let lws = server.loop.context
            let gate = TimerGate()
            var timers = (0..<1_000).map { _ in LwsTimer(context: lws, gate: gate) {} }
            #expect(gate.count == 1_000)
            // Drop every other one, from the middle out, so removals hit every slot position.
            timers = timers.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            #expect(gate.count == 500)
            timers.removeLast(250)
            #expect(gate.count == 250)
            timers.append(LwsTimer(context: lws, gate: gate) {})
            #expect(gate.count == 251)
            timers.removeAll()
            #expect(gate.count == 0)
        }

        @Test func closeCancelsEveryLiveTimerAndAFreedTimerNeverFires() throws {
            let server = try idleServer()
            let lws = server.loop.context
            let closing = TimerGate(), control = TimerGate()
            var fired: [String] = []
            // Survivors of removals in the gate (their slots moved), plus one freed while armed.
            var early = (0..<5).map { i in LwsTimer(context: lws, gate: closing) { fired.append("closed-\(i)") } }
            var freed: LwsTimer? = LwsTimer(context: lws, gate: control) { fired.append("freed") }
            // It wakes the loop too: lws runs due timers before it polls, so the service call
            // that fires it would otherwise wait in poll() for lws' next housekeeping.
            let last = LwsTimer(context: lws, gate: control) {
                fired.append("control")
                lws.wake()
            }
            for t in early { t.schedule(afterNanos: 1_000_000) }   // 1 ms
            freed?.schedule(afterNanos: 1_000_000)
            last.schedule(afterNanos: 30_000_000)                    // 30 ms: after all of them
            early.remove(at: 1)
            early.remove(at: 2)
            closing.close()
            freed = nil
            #expect(control.count == 1)
            early[0].schedule(afterNanos: 1_000)                      // ignored once closed
            // Service the loop until the control timer fired; anything due earlier that was
            // still armed would have fired before it.
            let deadline = Date().addingTimeInterval(10)
            while fired.isEmpty && Date() < deadline { _ = lws.service() }
            #expect(fired == ["control"])
            #expect(closing.count == 3)
            withExtendedLifetime(early) {}
        }
    }
}
