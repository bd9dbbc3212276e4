/// When a draw may be scheduled, and what happens to one whose time came while the server could
/// not start it (issue 30). Pure: every time is the caller's (epoch milliseconds), so tests
/// decide what "now" is.
public struct ScheduleWindow: Sendable, Hashable {
    /// The soonest a draw may be scheduled, after now: viewers must have a moment to see the
    /// commitment before the draw starts (and a host should start a draw now instead).
    public let minLeadMs: Double
    /// The latest, after now: a commitment held for longer than this is more likely to be lost
    /// with a room that expired than to be useful.
    public let maxAheadMs: Double
    /// How late a draw may still start after its time (a restart, a room busy with another
    /// draw): within it, the draw starts at once; past it, it is recorded `missed`.
    public let graceMs: Double

    /// 2 seconds to 30 days ahead; a draw up to 5 minutes late still starts.
    public static let standard = ScheduleWindow(minLeadMs: 2_000, maxAheadMs: 30 * 86_400_000, graceMs: 300_000)

    public init(minLeadMs: Double, maxAheadMs: Double, graceMs: Double) {
        self.minLeadMs = minLeadMs
        self.maxAheadMs = maxAheadMs
        self.graceMs = graceMs
    }

    /// Why a requested time is refused, or `nil` when it is within the window.
    public func refusal(at: Double, now: Double) -> ScheduleRefusal? {
        guard at.isFinite else { return .unreadableTime }
        if at <= now { return .inThePast }
        if at < now + minLeadMs { return .tooSoon(minLeadMs: minLeadMs) }
        if at > now + maxAheadMs { return .tooFarAhead(maxAheadMs: maxAheadMs) }
        return nil
    }

    /// What to do with a draw scheduled for `at`, seen at `now` (at startup, or at its wake-up).
    public func due(at: Double, now: Double) -> ScheduleDue {
        if now < at { return .wait(ms: at - now) }
        return now - at <= graceMs ? .startNow : .missed
    }
}

/// What a scheduled draw needs now (`ScheduleWindow.due`).
public enum ScheduleDue: Sendable, Hashable {
    /// Not yet: wake up in `ms`.
    case wait(ms: Double)
    /// Its time came (within the grace period): start it.
    case startNow
    /// Its time passed beyond the grace period: record it `missed`, seed revealed.
    case missed
}

/// Why a draw cannot be scheduled for the time asked.
public enum ScheduleRefusal: Error, Sendable, Hashable {
    /// Not an RFC 3339 date-time.
    case unreadableTime
    /// The time is not after now.
    case inThePast
    case tooSoon(minLeadMs: Double)
    case tooFarAhead(maxAheadMs: Double)

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .unreadableTime:
            return "Send the time as an RFC 3339 date-time, e.g. {\"at\":\"2030-01-31T18:00:00Z\"}."
        case .inThePast:
            return "That time has passed; choose a time in the future."
        case .tooSoon(let ms):
            return "A draw must be scheduled at least \(Int(ms / 1000)) seconds ahead; start it now instead."
        case .tooFarAhead(let ms):
            return "A draw can be scheduled at most \(Int(ms / 86_400_000)) days ahead."
        }
    }
}
