/// A scheduled draw's start (issue 30, docs/FAIRNESS.md §10): the one place a draw is made from
/// inputs committed before its start rather than drawn now.
extension DrawSession {
    /// Plans `draw` from its committed seed and entrants (and beacon round R, if it committed to
    /// one: the draw then waits for R and fetches it as in `DrawSession+Beacon`, whatever beacon
    /// the session has; without one it ends `beacon_unavailable`) and goes on like any draw (its plan is
    /// written, then `started` is published). Its record's `createdAt` is when it was scheduled,
    /// and its sources the list's at scheduling. Nothing when busy: the caller retries or records
    /// it missed.
    mutating func startScheduled(_ draw: ScheduledDraw, at t: DrawInstant) -> [DrawEffect] {
        guard canStart else { return [] }
        attempts += 1
        // How the winners are revealed (the host's wait between them) is the commitment's.
        configuration.planner = configuration.planner.revealing(draw.reveal)
        configuration.sources = draw.sources
        return planned(draw.plan(startedAtMs: t.epochMs), createdAt: draw.createdAt, at: t)
    }
}
