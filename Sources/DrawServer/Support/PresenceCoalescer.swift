/// Decides when a room sends `presence`: at most one per interval, always the latest count,
/// and nothing when the count is back to what was last sent.
///
/// Pure state machine; the room owns the timer and the clock. Presence always goes out from the
/// timer (armed with delay 0 when the interval has already passed), never from inside the
/// join/leave that caused it — which may itself be running inside a broadcast.
struct PresenceCoalescer {
    let intervalNanos: UInt64
    private var lastSentNanos: UInt64?
    private(set) var lastSentCount: Int?
    private(set) var timerArmed = false

    init(intervalMs: Int) {
        intervalNanos = UInt64(max(0, intervalMs)) * 1_000_000
    }

    /// The count changed at `nowNanos`. Returns the delay to arm the timer with, or `nil` when
    /// it is already armed (it will carry the latest count).
    mutating func countChanged(nowNanos: UInt64) -> UInt64? {
        guard !timerArmed else { return nil }
        timerArmed = true
        guard let last = lastSentNanos else { return 0 }
        let due = last &+ intervalNanos
        return due > nowNanos ? due - nowNanos : 0
    }

    /// The timer fired. Returns the count to send, or `nil` when it equals the last one sent.
    mutating func fire(count: Int, nowNanos: UInt64) -> Int? {
        timerArmed = false
        guard count != lastSentCount else { return nil }
        lastSentCount = count
        lastSentNanos = nowNanos
        return count
    }
}
