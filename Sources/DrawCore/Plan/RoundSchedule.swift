/// When each round of a draw is shown, as offsets from the draw's start.
///
/// Timing belongs to the plan, not to the server: the server only waits for each offset.
/// Every step of a draw is one gap after the step before it: round 1 follows `started` by the
/// lead (the first gap), each later round follows the previous one by that gap's interval, and
/// the result follows the last round by one more interval, so the drawn name holds for a beat.
///
/// Why a lead, and not round 1 at offset 0: `started` (entrants, commitment) goes to every
/// viewer first, and with thousands of viewers that fan-out takes tens of milliseconds. A round
/// due at the same instant would queue behind it and reach the last viewers late; one gap later
/// it finds the connections idle, like every other round. Viewers also get a beat to see who is
/// in the draw before the names start flipping.
///
/// A countdown (3-2-1 on the page) stretches that lead: round 1 comes `countdownMs` after
/// `started`, or one gap after it if that is later. It is part of the schedule, so every viewer,
/// and one who joins during the countdown, counts down to the same instant from `startedAt` and
/// the offsets. Timing never enters the picks (docs/FAIRNESS.md), so the countdown changes no
/// draw's outcome or its verification.
public struct RoundSchedule: Sendable, Hashable {
    /// How the gaps between flips evolve.
    public enum Pace: Sendable, Hashable {
        /// Every gap is the same, like the original app's 400 ms.
        case fixed(intervalMs: Int)
        /// Gaps grow linearly from `firstMs` to `lastMs`, so the flipping slows towards the end.
        /// Gap j (1-based, j = 1...rounds; gap j follows round j) is
        /// `firstMs + (lastMs - firstMs) * (j - 1) / (rounds - 1)` in integer arithmetic
        /// (truncating division); with one round, gap 1 is `firstMs`.
        case decelerating(firstMs: Int, lastMs: Int)
    }

    /// How many rounds a draw has.
    public let rounds: Int
    /// How the gaps are computed.
    public let pace: Pace
    /// The countdown before round 1, in milliseconds; 0 for none.
    public let countdownMs: Int

    /// The seed app's behaviour: 10 rounds, 400 ms between flips.
    public static let original = RoundSchedule(uncheckedRounds: 10, pace: .fixed(intervalMs: 400))

    /// Limits that keep a draw watchable and the server's timers sane.
    public static let roundLimit = 1...100
    public static let intervalLimit = 0...60_000
    public static let countdownLimit = 0...60_000

    /// Creates a schedule, or `nil` when rounds or intervals are outside the limits.
    public init?(rounds: Int = 10, pace: Pace, countdownMs: Int = 0) {
        guard RoundSchedule.roundLimit.contains(rounds), RoundSchedule.countdownLimit.contains(countdownMs) else { return nil }
        switch pace {
        case .fixed(let ms):
            guard RoundSchedule.intervalLimit.contains(ms) else { return nil }
        case .decelerating(let first, let last):
            guard RoundSchedule.intervalLimit.contains(first), RoundSchedule.intervalLimit.contains(last) else {
                return nil
            }
        }
        self.init(uncheckedRounds: rounds, pace: pace, countdownMs: countdownMs)
    }

    private init(uncheckedRounds rounds: Int, pace: Pace, countdownMs: Int = 0) {
        self.rounds = rounds
        self.pace = pace
        self.countdownMs = countdownMs
    }

    /// The gap after round `j` (1-based), in milliseconds.
    public func gapMs(after j: Int) -> Int {
        switch pace {
        case .fixed(let ms):
            return ms
        case .decelerating(let first, let last):
            guard rounds > 1 else { return first }
            return first + (last - first) * (j - 1) / (rounds - 1)
        }
    }

    /// The pause between `started` and round 1: the first gap (the fixed interval, or
    /// `firstMs` when decelerating), or the countdown when that is longer.
    public var leadMs: Int { max(gapMs(after: 1), countdownMs) }

    /// Offsets of rounds 1...rounds from the start, in milliseconds. The first is `leadMs`.
    public var roundOffsetsMs: [Int] {
        var offsets: [Int] = []
        offsets.reserveCapacity(rounds)
        var t = leadMs
        for j in 1...rounds {
            offsets.append(t)
            t += gapMs(after: j)
        }
        return offsets
    }

    /// Offset of the result (`finished`), one gap after the last round.
    public var finishOffsetMs: Int {
        (roundOffsetsMs.last ?? 0) + gapMs(after: rounds)
    }
}
