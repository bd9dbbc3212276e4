@testable import DrawTransport
import Foundation
import Testing

/// Issue 11, finding 6: the gate that closes every timer at teardown costs O(1) per timer
/// (it used to sweep its whole list on each registration), lists exactly the live timers, and
/// still cancels every one of them on `close()`.
///
/// On a real transport that no server runs, so this test's thread is its service thread and may
/// drive the loop itself (`Transport.service`).
@Suite(.serialized) struct TimerGateTests {
    private func idleTransport() throws -> Transport {
        try #require(Transport(Transport.Settings(), thread: ThreadOwner(name: "service")))
    }

    @Test func theGateCountsLiveTimersOnly() throws {
        let transport = try idleTransport()
        defer { transport.destroy() }
        let gate = TimerGate()
        var timers = (0..<1_000).map { _ in LoopTimer(transport: transport, gate: gate) {} }
        #expect(gate.count == 1_000)
        // Drop every other one, from the middle out, so removals hit every slot position.
        timers = timers.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(gate.count == 500)
        timers.removeLast(250)
        #expect(gate.count == 250)
        timers.append(LoopTimer(transport: transport, gate: gate) {})
        #expect(gate.count == 251)
        timers.removeAll()
        #expect(gate.count == 0)
    }

    @Test func closeCancelsEveryLiveTimerAndAFreedTimerNeverFires() throws {
        let transport = try idleTransport()
        defer { transport.destroy() }
        let closing = TimerGate(), control = TimerGate()
        var fired: [String] = []
        // Survivors of removals in the gate (their slots moved), plus one freed while armed.
        var early = (0..<5).map { i in LoopTimer(transport: transport, gate: closing) { fired.append("closed-\(i)") } }
        var freed: LoopTimer? = LoopTimer(transport: transport, gate: control) { fired.append("freed") }
        // It wakes the loop too: lws runs due timers before it polls, so the service call
        // that fires it would otherwise wait in poll() for lws' next housekeeping.
        let last = LoopTimer(transport: transport, gate: control) {
            fired.append("control")
            transport.wake()
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
        while fired.isEmpty && Date() < deadline { _ = transport.service() }
        #expect(fired == ["control"])
        #expect(closing.count == 3)
        withExtendedLifetime(early) {}
    }

    /// Every draw round is a timer: its callback is an entry into the service thread like an
    /// event, and runs there (the thread that services the loop).
    @Test func aTimerFiresOnTheThreadThatServicesTheLoop() throws {
        let transport = try idleTransport()
        defer { transport.destroy() }
        transport.thread.claim()
        let serviceThread = pthread_self()
        var firedOnServiceThread: Bool?
        let timer = transport.timer {
            firedOnServiceThread = pthread_equal(pthread_self(), serviceThread) != 0
            transport.wake()
        }
        timer.schedule(afterNanos: 1_000_000)
        let deadline = Date().addingTimeInterval(10)
        while firedOnServiceThread == nil && Date() < deadline { _ = transport.service() }
        #expect(firedOnServiceThread == true)
    }

    #if DEBUG
    /// The check is wired: a timer fired by a loop serviced off the thread that claimed it traps
    /// in debug builds, as an event or the inbox's drain would.
    @Test func aTimerFiredOffItsThreadTraps() async {
        await #expect(processExitsWith: .failure) {
            let owner = ThreadOwner(name: "service")
            let claimed = DispatchSemaphore(value: 0)
            Thread { owner.claim(); claimed.signal() }.start()
            claimed.wait()
            let transport = Transport(Transport.Settings(), thread: owner)!
            var fired = false
            let timer = transport.timer {
                fired = true
                transport.wake()
            }
            timer.schedule(afterNanos: 1_000_000)
            let deadline = Date().addingTimeInterval(10)
            while !fired && Date() < deadline { _ = transport.service() }
        }
    }
    #endif
}
