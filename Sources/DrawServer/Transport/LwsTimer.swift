import CLwsShim

/// A one-shot timer on the lws service loop (`lws_sul_schedule`).
///
/// Threading: create, schedule, cancel and fire only on the service thread; lws' sorted timer
/// list is not locked against other threads.
///
/// Ownership: the C timer holds an unretained pointer to this object; `deinit` cancels and frees
/// the C timer first, so lws can never call back into a freed object. Whoever keeps the timer
/// alive (a room, the server) decides its lifetime.
final class LwsTimer {
    private var handle: OpaquePointer?
    private let gate: TimerGate
    private let action: () -> Void

    init(server: OpaquePointer, gate: TimerGate, action: @escaping () -> Void) {
        self.gate = gate
        self.action = action
        handle = ldlws_timer_create(server, lwsTimerFired, Unmanaged.passUnretained(self).toOpaque())
        gate.register(self)
    }

    /// Arms the timer `nanos` from now (replacing an earlier schedule). Ignored once the server
    /// is tearing down.
    func schedule(afterNanos nanos: UInt64) {
        guard gate.isOpen, let handle else { return }
        ldlws_timer_schedule(handle, Int64(min(nanos / 1000, UInt64(Int64.max))))
    }

    func cancel() {
        if let handle { ldlws_timer_cancel(handle) }
    }

    fileprivate func fire() { action() }

    deinit { ldlws_timer_destroy(handle) }
}

/// Closes all timers at once before the lws context goes away: after `close()` nothing can be
/// scheduled, and every timer created so far is cancelled (lws would otherwise keep pointers to
/// them in a list that `lws_context_destroy` frees).
final class TimerGate {
    private(set) var isOpen = true
    private var timers: [WeakTimer] = []

    fileprivate func register(_ t: LwsTimer) {
        timers.removeAll { $0.timer == nil }
        timers.append(WeakTimer(timer: t))
    }

    func close() {
        isOpen = false
        for t in timers { t.timer?.cancel() }
        timers.removeAll()
    }

    private struct WeakTimer { weak var timer: LwsTimer? }
}

/// C entry point for every timer: `owner` is the unretained `LwsTimer` (see its ownership note).
private func lwsTimerFired(_ owner: UnsafeMutableRawPointer?) {
    guard let owner else { return }
    Unmanaged<LwsTimer>.fromOpaque(owner).takeUnretainedValue().fire()
}
