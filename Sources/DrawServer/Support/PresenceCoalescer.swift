/// Decides when a room sends `presence`: at most one per interval, always the latest count,
/// and nothing when the count is back to what was last sent.
///
/// The interval grows with the room: it is `viewers × nanosPerViewer`, but never less than the
/// configured minimum. Every `presence` goes to every viewer, so in a room of N viewers a fixed
/// interval would cost N messages per tick — with 10,000 viewers joining, four ticks a second
/// would be 40,000 messages a second just for the count, most of a core. Scaled, a room's
/// presence costs at most `1 / nanosPerViewer` messages per second whatever its size
/// (10,000/s with the default 100 µs), and a room of 10,000 updates its count once a second.
///
/// Pure state machine; the room owns the timer and the clock. Presence always goes out from the
/// timer (armed with delay 0 when the interval has already passed), never from inside the
/// join/leave that caused it — which may itself be running inside a broadcast.
struct PresenceCoalescer {
    /// The shortest interval, for small rooms.
    let minIntervalNanos: UInt64
    /// How much the interval grows per viewer.
    let nanosPerViewer: UInt64
    private var lastSentNanos: UInt64?
    private(set) var lastSentCount: Int?
    private(set) var timerArmed = false

    /// The default growth: 100 µs per viewer, i.e. at most 10,000 presence messages a second.
    static let defaultNanosPerViewer: UInt64 = 100_000

    init(intervalMs: Int, nanosPerViewer: UInt64 = PresenceCoalescer.defaultNanosPerViewer) {
        minIntervalNanos = UInt64(max(0, intervalMs)) * 1_000_000
        self.nanosPerViewer = nanosPerViewer
    }

    /// The interval for a room of `viewers`.
    func intervalNanos(viewers: Int) -> UInt64 {
        max(minIntervalNanos, UInt64(max(0, viewers)) &* nanosPerViewer)
    }

    /// The count changed to `viewers` at `nowNanos`. Returns the delay to arm the timer with, or
    /// `nil` when it is already armed (it will carry the latest count).
    mutating func countChanged(viewers: Int, nowNanos: UInt64) -> UInt64? {
        guard !timerArmed else { return nil }
        timerArmed = true
        guard let last = lastSentNanos else { return 0 }
        let due = last &+ intervalNanos(viewers: viewers)
        return due > nowNanos ? due - nowNanos : 0
    }

    /// A draw message told every viewer the count: it counts as sent.
    mutating func carried(count: Int, nowNanos: UInt64) {
        lastSentCount = count
        lastSentNanos = nowNanos
    }

    /// The timer fired but nothing may be sent now; the next change arms it again.
    mutating func skipped() {
        timerArmed = false
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
