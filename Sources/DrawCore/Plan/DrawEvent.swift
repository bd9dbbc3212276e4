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
    /// Winner `slot` of a draw that reveals each winner (`DrawPlan.revealsEachWinner`) is known:
    /// its flips were shown. `next` says what comes after it: winner `slot + 1`'s flips from
    /// `nextStartsAt` (running on), the host's go (`awaitingHost`), or, after the last winner,
    /// `finished` right behind it.
    case winner(DrawPlan, slot: Int, sentAtMs: Double, next: WinnerNext)
    /// Winner `slot`'s flips start: the host asked for the next winner. Its flips follow at
    /// `startsAt + schedule offset`, as winner 1's follow `started`.
    case nextWinner(DrawPlan, slot: Int, startsAt: Double)
    /// The draw ended as planned; the seed may now be revealed.
    case finished(DrawPlan, startedAt: Double, finishedAt: Double)
    /// No draw could be planned (a source failed, or no players were left).
    case failed(DrawError)
    /// A running draw was stopped before its end (shutdown, storage failure); the seed is revealed
    /// so the rounds shown so far can still be verified.
    case aborted(DrawPlan, roundsShown: Int, reason: String)
}

/// What follows a winner's reveal (`DrawEvent.winner`).
public enum WinnerNext: Sendable, Hashable {
    /// The next winner's flips start by themselves at this time (epoch ms).
    case runsOn(startsAt: Double)
    /// The next winner waits for the host's "draw the next winner".
    case awaitingHost
    /// That was the last winner: `finished` follows.
    case finished
}
