/// How a server's draws use a beacon (`--beacon-url`, `--beacon-chain`): the chain, checked at
/// start, and the timing rules a draw follows (`docs/FAIRNESS.md` §9).
public struct BeaconSettings: Sendable, Hashable {
    public let chain: BeaconChain
    /// Round `R` is the first round published at least this long after the draw is planned.
    public let marginMs: Int
    /// How long after `R`'s publication time the draw keeps trying to fetch it before it fails
    /// with `beacon_unavailable`.
    public let waitMs: Int

    /// Limits of `marginMs`: at least a second, so `R` cannot be known when the commitment is made;
    /// at most a minute, as the audience watches the wait.
    public static let marginLimit = 1_000...60_000
    /// Limits of `waitMs`: long enough for a relay's usual delay, short enough for an audience.
    public static let waitLimit = 100...60_000
    /// Time allowed after `R`'s publication for its fetch before round 1 is due: the countdown
    /// of a beacon draw lasts until `R`'s time plus this, so on time the flips never wait.
    public static let fetchAllowanceMs = 1_000
    /// Pause between two fetches of `R` that failed (a relay not serving it yet, an error).
    public static let retryMs = 250

    /// `nil` when a value is outside its limits.
    public init?(chain: BeaconChain, marginMs: Int = 2_000, waitMs: Int = 5_000) {
        guard Self.marginLimit.contains(marginMs), Self.waitLimit.contains(waitMs) else { return nil }
        self.chain = chain
        self.marginMs = marginMs
        self.waitMs = waitMs
    }

    /// The beacon of a draw planned at `plannedAtMs` (`DrawBeacon.committing`).
    public func beacon(plannedAtMs: Double) -> DrawBeacon? {
        DrawBeacon.committing(on: chain, plannedAtMs: plannedAtMs, marginMs: marginMs)
    }

    /// `schedule` with its countdown stretched so round 1 comes no earlier than `beacon`'s round
    /// plus `fetchAllowanceMs` after `plannedAtMs`; `nil` when that would pass the countdown's
    /// limit (a chain whose period is too long for a live draw).
    public func schedule(_ schedule: RoundSchedule, for beacon: DrawBeacon, plannedAtMs: Double) -> RoundSchedule? {
        Self.stretched(schedule, until: beacon, from: plannedAtMs, pastLimit: .refuse)
    }

    /// What a stretched countdown does when `beacon`'s round comes later than the countdown's limit.
    public enum PastCountdownLimit: Sendable {
        /// No schedule: a round is being chosen, and one that far off cannot run a live draw.
        case refuse
        /// The countdown's limit: the round is already committed to (a scheduled draw started
        /// late), and past the countdown the draw still waits for it before round 1.
        case cap
    }

    /// The one rule of a beacon draw's countdown (§9.1): `schedule`'s countdown (at least), long
    /// enough that round 1 comes no earlier than `beacon`'s round plus `fetchAllowanceMs` after
    /// `startMs`. Past `RoundSchedule.countdownLimit` it is `nil` or the limit, as `pastLimit` says;
    /// a time that is not finite counts as past it when refused, as no wait when capped.
    public static func stretched(_ schedule: RoundSchedule, until beacon: DrawBeacon, from startMs: Double,
                                 pastLimit: PastCountdownLimit) -> RoundSchedule? {
        let limit = RoundSchedule.countdownLimit.upperBound
        let untilRound = (beacon.roundAtMs - startMs).rounded(.up)
        guard untilRound.isFinite || pastLimit == .cap else { return nil }
        // Clamped before the conversion: a round long before `startMs` (a beacon read back from
        // a record) or long after it would otherwise be a Double outside `Int`, and `Int(_:)` traps.
        let wanted = untilRound.isFinite ? Int(min(max(0, untilRound), Double(limit))) : 0
        let countdown = max(schedule.countdownMs, wanted + fetchAllowanceMs)
        guard countdown <= limit || pastLimit == .cap else { return nil }
        return RoundSchedule(rounds: schedule.rounds, pace: schedule.pace, countdownMs: min(limit, countdown))
    }
}
