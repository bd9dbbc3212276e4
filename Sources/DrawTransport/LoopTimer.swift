import CLwsShim

/// A one-shot timer on the service loop: an lws sul (`lws_sul_schedule`) under `--event-loop poll`,
/// a libev timer on our own loop under libev (`ldlws_loop.c` says why: lws 4.1.6's libev plugin
/// misses suls scheduled earlier than the one it is armed for).
///
/// Threading: create, schedule, cancel and fire only on the service thread; lws' sorted timer
/// list is not locked against other threads. Every firing checks the loop's `ThreadOwner` in
/// debug builds, like every other entry into the service thread (release builds: no cost).
///
/// Ownership: the C timer holds an unretained pointer to this object; `deinit` cancels and frees
/// the C timer first, so lws can never call back into a freed object. Whoever keeps the timer
/// alive (a room, the server) decides its lifetime. The gate holds it unretained too, and
/// `deinit` takes it out of the gate, so the gate only ever lists live timers.
package final class LoopTimer {
    private var handle: OpaquePointer?
    private let gate: TimerGate
    private let action: () -> Void
    /// The service thread, checked on every firing.
    private let owner: ThreadOwner
    /// This timer's position in `gate`'s list, kept up to date by the gate (O(1) removal).
    fileprivate var gateSlot = -1

    init(transport: Transport, gate: TimerGate, action: @escaping () -> Void) {
        self.gate = gate
        self.action = action
        owner = transport.thread
        handle = transport.context.server.flatMap { ldlws_timer_create($0, lwsTimerFired, Unmanaged.passUnretained(self).toOpaque()) }
        gate.register(self)
    }

    /// Arms the timer `nanos` from now (replacing an earlier schedule). Ignored once the server
    /// is tearing down.
    package func schedule(afterNanos nanos: UInt64) {
        guard gate.isOpen, let handle else { return }
        ldlws_timer_schedule(handle, Int64(min(nanos / 1000, UInt64(Int64.max))))
    }

    package func cancel() {
        if let handle { ldlws_timer_cancel(handle) }
    }

    fileprivate func fire() {
        owner.check()
        action()
    }

    deinit {
        gate.unregister(self)
        ldlws_timer_destroy(handle)
    }
}

/// Closes all timers at once before the transport's context goes away: after `close()` nothing can be
/// scheduled, and every timer alive is cancelled (lws would otherwise keep pointers to them in a
/// list that `lws_context_destroy` frees).
///
/// Registering and unregistering cost O(1) whatever the number of timers (issue 11, finding 6:
/// the old list was swept on every registration, so creating the 10,000th room blocked the
/// service thread ~11 ms). Each timer keeps its slot; removal swaps the last timer into it.
package final class TimerGate {
    package private(set) var isOpen = true
    /// Every live timer, unretained: a timer leaves in its `deinit`, so none here is ever freed.
    private var timers: [Unmanaged<LoopTimer>] = []

    /// How many timers are alive (tests: the gate must not grow with dead timers).
    package var count: Int { timers.count }

    fileprivate func register(_ t: LoopTimer) {
        t.gateSlot = timers.count
        timers.append(.passUnretained(t))
    }

    fileprivate func unregister(_ t: LoopTimer) {
        let slot = t.gateSlot
        guard slot >= 0, slot < timers.count, timers[slot].toOpaque() == Unmanaged.passUnretained(t).toOpaque() else { return }
        let last = timers.removeLast()
        if slot < timers.count {
            timers[slot] = last
            last.takeUnretainedValue().gateSlot = slot
        }
        t.gateSlot = -1
    }

    package init() {}

    package func close() {
        isOpen = false
        for t in timers { t.takeUnretainedValue().cancel() }
    }
}

/// C entry point for every timer: `owner` is the unretained `LoopTimer` (see its ownership note).
private func lwsTimerFired(_ owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<LoopTimer>.fromOpaque(owner).takeUnretainedValue().fire()
}
