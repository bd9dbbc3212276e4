extension DrawSummary {
    /// The history line of a whole record (what the store's listing would show for it), for the
    /// cluster's shared history. The reveal rule applies again: an outcome only for `finished`.
    public init(record r: DrawRecord) {
        self.init(drawId: r.drawId, room: r.room, status: r.status, createdAt: r.createdAt,
                  startedAt: r.startedAt, finishedAt: r.finishedAt, entrantCount: r.entrants.count,
                  roundsShown: r.roundsShown, commitment: r.commitment, plannedDrawn: r.outcome?.drawn,
                  failureCode: r.failure?.code, winners: r.winners, plannedWinnerPicks: r.winnerPicks,
                  redrawOf: r.redrawOf)
    }
}

extension DrawSummary {
    /// This line with its slots' players, which a store may read apart from the line itself.
    public func with(winnerPicks: [WinnerPick]) -> DrawSummary {
        DrawSummary(drawId: drawId, room: room, status: status, createdAt: createdAt, startedAt: startedAt,
                    finishedAt: finishedAt, entrantCount: entrantCount, roundsShown: roundsShown,
                    commitment: commitment, plannedDrawn: outcome?.drawn, failureCode: failureCode,
                    winners: winners, plannedWinnerPicks: winnerPicks, redrawOf: redrawOf)
    }
}
