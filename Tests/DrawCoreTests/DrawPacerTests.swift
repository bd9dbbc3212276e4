import DrawCore
import Testing

/// The pacing rule: each step is due at its planned time, or one full gap after the previous
/// step actually went out if that is later. Times are plain numbers (an injected clock).
struct DrawPacerTests {
    private static let ms: UInt64 = 1_000_000
    /// 4 rounds 100 ms apart: rounds at 100, 200, 300, 400, the result at 500.
    private static let schedule = RoundSchedule(rounds: 4, pace: .fixed(intervalMs: 100))!

    /// Sends every step exactly when it is due and returns the send times.
    private func runOnTime(_ pacer: inout DrawPacer) -> [UInt64] {
        var sent: [UInt64] = []
        while let due = pacer.dueNanos {
            sent.append(due)
            pacer.sent(atNanos: due)
        }
        return sent
    }

    @Test func onTimeTheStepsFollowThePlanFromWhenStartedWentOut() {
        // `started` went out at 1 s: that, not when the draw was planned, is the origin.
        var pacer = DrawPacer(schedule: Self.schedule, startedNanos: 1000 * Self.ms)
        #expect(pacer.step == .round(index: 0))
        let sent = runOnTime(&pacer)
        #expect(sent == [1100, 1200, 1300, 1400, 1500].map { $0 * Self.ms })
        #expect(pacer.step == .done)
        #expect(pacer.dueNanos == nil)
    }

    @Test func aLateRoundPushesTheNextOneAFullGapAfterItsActualSend() {
        var pacer = DrawPacer(schedule: Self.schedule, startedNanos: 0)
        pacer.sent(atNanos: 100 * Self.ms)             // round 1 on time
        #expect(pacer.latenessNanos(at: 250 * Self.ms) == 50 * Self.ms)
        pacer.sent(atNanos: 250 * Self.ms)             // round 2 due at 200, sent 50 ms late
        // Round 3 was planned at 300, only 50 ms after round 2's actual send: it waits the
        // whole gap instead.
        #expect(pacer.dueNanos == 350 * Self.ms)
        #expect(pacer.delayNanos(from: 250 * Self.ms) == 100 * Self.ms)
        pacer.sent(atNanos: 350 * Self.ms)
        #expect(pacer.dueNanos == 450 * Self.ms)       // the lateness carries over, it does not grow
        pacer.sent(atNanos: 450 * Self.ms)
        #expect(pacer.step == .result)
        #expect(pacer.dueNanos == 550 * Self.ms)       // the result holds the last name a full gap too
    }

    /// The bunching the issue saw: a timer that fires far too late (a stalled service thread)
    /// must not release the rounds that piled up all at once.
    @Test func neverTwoStepsAtTheSameInstantWhateverTheLateness() {
        var pacer = DrawPacer(schedule: Self.schedule, startedNanos: 0)
        // The first timer fires seconds late, with every step overdue; later ones are late by
        // varying amounts. Whatever happens, consecutive sends are at least a full gap apart.
        let extraLateness: [UInt64] = [4900, 0, 30, 0, 7]
        var sends: [UInt64] = []
        var now: UInt64 = 0
        for extra in extraLateness {
            guard let due = pacer.dueNanos else { break }
            now = due + extra * Self.ms
            pacer.sent(atNanos: now)
            sends.append(now)
        }
        #expect(pacer.step == .done)
        #expect(sends.count == 5)
        for (a, b) in zip(sends, sends.dropFirst()) {
            #expect(b - a >= 100 * Self.ms, "steps at \(a / Self.ms) and \(b / Self.ms) ms")
        }
    }

    @Test func anEarlyTimerWaitsForThePlannedTime() {
        var pacer = DrawPacer(schedule: Self.schedule, startedNanos: 0)
        pacer.sent(atNanos: 90 * Self.ms)              // round 1 fired 10 ms early
        #expect(pacer.dueNanos == 200 * Self.ms, "the plan, not 190")
        #expect(pacer.latenessNanos(at: 150 * Self.ms) == 0)
        #expect(pacer.delayNanos(from: 250 * Self.ms) == 0)
    }

    @Test func deceleratingGapsAreKeptAfterALateRound() {
        let slowing = RoundSchedule(rounds: 3, pace: .decelerating(firstMs: 100, lastMs: 300))!
        // Rounds at 100, 200, 400; the result at 700 (gaps 100, 100, 200, 300).
        var pacer = DrawPacer(schedule: slowing, startedNanos: 0)
        pacer.sent(atNanos: 180 * Self.ms)             // round 1, 80 ms late
        #expect(pacer.dueNanos == 280 * Self.ms)       // the gap of 100 after the actual send
        pacer.sent(atNanos: 280 * Self.ms)
        #expect(pacer.dueNanos == 480 * Self.ms)       // then 200
        pacer.sent(atNanos: 480 * Self.ms)
        #expect(pacer.dueNanos == 780 * Self.ms)       // then 300
    }
}
