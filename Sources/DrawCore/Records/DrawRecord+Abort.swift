extension DrawRecord {
    /// This record as it will read once its abort is stored: status `aborted`, the seed revealed,
    /// every planned round (recomputed from the seed, `sentAt` kept for the ones shown).
    ///
    /// Why: viewers were told `aborted` with the seed, but the store could not take that write
    /// yet (a full disk). Until it can, the history serves this instead of a `running` record
    /// that contradicts what everybody saw. Recomputing the rounds is exact: a plan is a pure
    /// function of (entrants, seed, draw id, schedule, and a beacon draw's round R once fetched).
    ///
    /// `nil` unless the record is `running` and `seed` matches its commitment, so this can never
    /// reveal anything but the seed the draw committed to.
    public func aborted(reason: String, finishedAt: Double, seed: Seed) -> DrawRecord? {
        var sentAt: [Int: Double] = [:]
        for r in rounds { sentAt[r.round] = r.sentAt }
        return ended(as: .aborted, reason: reason, finishedAt: finishedAt, seed: seed, sentAt: sentAt)
    }

    /// This record ended with `status` at `finishedAt`: the seed revealed and every planned round
    /// recomputed from it, `sentAt` giving the rounds shown. `nil` unless the record is `running`
    /// and `seed` matches its commitment.
    ///
    /// A beacon draw (FAIRNESS.md §9) keeps its beacon: with round `R` fetched, the rounds are
    /// keyed by it as they were shown; still waiting for `R`, nothing was picked, so the record
    /// has no rounds and no outcome (never picks from the seed alone), and `nil` if it says a
    /// round was shown.
    func ended(as status: DrawStatus, reason: String?, finishedAt: Double, seed: Seed,
               sentAt: [Int: Double]) -> DrawRecord? {
        guard self.status == .running, let schedule, !entrants.isEmpty, seed.commitment == commitment else { return nil }
        guard DrawPlan.isValidWinnerCount(winners, entrants: entrants.count) else { return nil }
        let plan = DrawPlan.make(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed,
                                 schedule: schedule, winners: winners, revealEachWinner: revealsEachWinner,
                                 redrawOf: redrawOf, beacon: beacon)
        guard !plan.isAwaitingBeacon || sentAt.isEmpty else { return nil }
        let planned = plan.rounds.map {
            RecordedRound(round: $0.round, offsetMs: $0.offsetMs, pickIndex: $0.pickIndex, player: $0.player,
                          sentAt: sentAt[$0.round], slot: $0.slot, flip: $0.flip)
        }
        return DrawRecord(drawId: drawId, room: room, status: status, createdAt: createdAt, startedAt: startedAt,
                          finishedAt: finishedAt, sources: sources, entrants: entrants, warnings: warnings,
                          commitment: commitment, entrantsHash: entrantsHash, schedule: schedule,
                          plannedRounds: planned, plannedDrawn: plan.isAwaitingBeacon ? nil : plan.outcome.drawn,
                          storedSeed: seed, failure: nil, abortReason: reason, winners: winners,
                          revealsEachWinner: revealsEachWinner, redrawOf: redrawOf, beacon: beacon)
    }
}

extension DrawSummary {
    /// This history line as it will read once the draw's abort is stored (see
    /// `DrawRecord.aborted(reason:finishedAt:seed:)`); itself unless it is `running`.
    public func aborted(finishedAt: Double) -> DrawSummary {
        guard status == .running else { return self }
        return DrawSummary(drawId: drawId, room: room, status: .aborted, createdAt: createdAt, startedAt: startedAt,
                           finishedAt: finishedAt, entrantCount: entrantCount, roundsShown: roundsShown,
                           commitment: commitment, plannedDrawn: nil, failureCode: failureCode, winners: winners)
    }
}
