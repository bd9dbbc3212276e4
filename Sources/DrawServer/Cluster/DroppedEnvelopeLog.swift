/// Messages on the rooms' channels that no node sent (a wrong or missing MAC, or one that does
/// not decode), counted between the warnings that report them: one line per `intervalNanos` at
/// most, whatever a publisher to Redis floods the channel with, each saying how many were
/// dropped since the last. A pure value (tested without Redis); `ClusterEventReceiver` keeps one
/// on the service thread.
struct DroppedEnvelopeLog {
    /// At most one warning this often (monotonic ns).
    static let intervalNanos: UInt64 = 10_000_000_000

    /// Dropped since the last warning, and when that was (monotonic ns).
    private var sinceLog = 0
    private var lastLog: UInt64?

    /// One more message was dropped at `now`: how many to report in a warning now (this one
    /// included), or `nil` while the last warning is younger than `intervalNanos`.
    mutating func dropped(nowNanos now: UInt64) -> Int? {
        sinceLog += 1
        if let last = lastLog, now &- last < Self.intervalNanos { return nil }
        lastLog = now
        defer { sinceLog = 0 }
        return sinceLog
    }
}
