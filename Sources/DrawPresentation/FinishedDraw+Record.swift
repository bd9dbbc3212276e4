import DrawCore

extension FinishedDraw {
    /// The result a room shows in its snapshot, rebuilt from the draw's permanent record: the
    /// plan recomputed from the revealed seed, exactly as the server planned it (the record's own
    /// `verify()` checks the same). `nil` unless the draw `finished` (an aborted or interrupted
    /// draw announced no result) with its seed, entrants and times.
    ///
    /// This is how a room brought back from the store (after a restart or an eviction) still
    /// shows its last result.
    public init?(record: DrawRecord) {
        guard record.status == .finished, let inputs = record.verificationInputs, inputs.hasValidWinnerCount,
              let startedAt = record.startedAt, let finishedAt = record.finishedAt else { return nil }
        // With its winner count: without it a three-winner draw came back after a restart as a
        // one-winner result, and "Last result" named only the first winner (issue 28, item 5).
        let plan = DrawPlan.make(drawId: inputs.drawId, entrants: inputs.entrants, warnings: record.warnings,
                                 seed: inputs.seed, schedule: inputs.schedule,
                                 winners: inputs.hasValidWinnerCount ? inputs.winners : 1,
                                 revealEachWinner: record.revealsEachWinner, redrawOf: record.redrawOf)
        self.init(plan: plan, startedAt: startedAt, finishedAt: finishedAt)
    }
}
