/// What happens in a room's draw, in order. The server publishes these on its room event bus;
/// the presentation layer turns each into the wire message clients see.
///
/// Events carry the whole plan so the presenter can choose what to show; it is the presenter's
/// job never to put `plan.seed` on the wire before `finished`.
public enum DrawEvent: Sendable, Hashable {
    /// Players are being fetched for a new draw.
    case loading(at: Double)
    /// The plan is fixed; `startedAt` is when this goes out, and round 1 follows one gap later
    /// (`startedAt + plan.rounds[0].offsetMs`, later if the server is late: see `DrawPacer`).
    case started(DrawPlan, startedAt: Double)
    /// Round `index` (0-based into `plan.rounds`) is being shown; `sentAtMs` is the wall clock
    /// when its fan-out started.
    case round(DrawPlan, index: Int, sentAtMs: Double)
    /// The draw ended as planned; the seed may now be revealed.
    case finished(DrawPlan, startedAt: Double, finishedAt: Double)
    /// No draw could be planned (a source failed, or no players were left).
    case failed(DrawError)
    /// A running draw was stopped before its end (shutdown, storage failure); the seed is revealed
    /// so the rounds shown so far can still be verified.
    case aborted(DrawPlan, roundsShown: Int, reason: String)
}
