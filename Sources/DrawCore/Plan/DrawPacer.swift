/// When each step of a running draw is due, given when the steps before it actually went out.
///
/// A draw's steps are `started`, rounds 1...n, and the result. The plan fixes their offsets from
/// `started` (`RoundSchedule`), and the gaps between consecutive offsets are what viewers watch.
/// So the next step is due at the later of
/// - its planned time, `start + offset`, and
/// - one full gap after the step before it actually went out, `lastSent + gap`.
///
/// On time, that is the plan. When the server is late (a busy service thread, a slow disk before
/// `started`), the lateness shifts the rest of the draw instead of being made up by sending the
/// next rounds early: two rounds never go out together, and no gap is ever shorter than the plan
/// promises. The price is that a late draw ends late by as much, which nobody watching notices.
///
/// `start` is when `started` itself went out, not when the draw was planned: the wait for the
/// plan's record must not eat into round 1's lead.
///
/// Pure: times are monotonic nanoseconds from any origin, passed in, so the rule is tested with
/// plain numbers. Offsets come from `RoundSchedule`, whose limits (100 rounds of at most 60 s)
/// keep every sum far below `UInt64.max`.
public struct DrawPacer: Sendable, Hashable {
    /// What the next step is.
    public enum Step: Sendable, Hashable {
        /// Round `index + 1` (`index` into `DrawPlan.rounds`).
        case round(index: Int)
        /// The result, one gap after the last round.
        case result
        /// Every step went out.
        case done
    }

    /// Offsets from `started` of every round, then of the result, in milliseconds.
    private let offsetsMs: [Int]
    /// When `started` went out.
    public let startNanos: UInt64
    /// When the previous step went out (`startNanos` until round 1 has).
    public private(set) var lastSentNanos: UInt64
    /// Index into `offsetsMs` of the next step.
    private var next = 0

    /// Paces `schedule` from `started` having gone out at `startedNanos`.
    public init(schedule: RoundSchedule, startedNanos: UInt64) {
        offsetsMs = schedule.roundOffsetsMs + [schedule.finishOffsetMs]
        startNanos = startedNanos
        lastSentNanos = startedNanos
    }

    /// The step that comes next.
    public var step: Step {
        if next < offsetsMs.count - 1 { return .round(index: next) }
        return next == offsetsMs.count - 1 ? .result : .done
    }

    /// When the next step is due: its planned time, or one gap after the previous step's actual
    /// send if that is later. `nil` once every step went out.
    public var dueNanos: UInt64? {
        guard next < offsetsMs.count else { return nil }
        let offset = offsetsMs[next]
        let gap = offset - (next == 0 ? 0 : offsetsMs[next - 1])
        return max(startNanos + Self.nanos(offset), lastSentNanos + Self.nanos(gap))
    }

    /// Records that the next step went out at `nanos` and moves on to the one after it.
    public mutating func sent(atNanos nanos: UInt64) {
        guard next < offsetsMs.count else { return }
        lastSentNanos = max(nanos, lastSentNanos)
        next += 1
    }

    /// How long from `now` until the next step is due (0 when it is due or overdue).
    public func delayNanos(from now: UInt64) -> UInt64 {
        guard let due = dueNanos, due > now else { return 0 }
        return due - now
    }

    /// How late a step sent at `now` is against its due time (0 when on time).
    public func latenessNanos(at now: UInt64) -> UInt64 {
        guard let due = dueNanos, now > due else { return 0 }
        return now - due
    }

    private static func nanos(_ ms: Int) -> UInt64 { UInt64(max(0, ms)) * 1_000_000 }
}
