/// Everything a draw will do, fixed before round 1: who is in it, what each round shows and when,
/// and the outcome. The server only carries it out.
///
/// A plan is a pure function of (entrants, seed, draw id, schedule): `DrawPlan.make` recomputes
/// it, which is what makes a finished draw verifiable.
public struct DrawPlan: Sendable, Hashable {
    public let drawId: String
    /// The players, in lottery-list order; pick indices refer to this order.
    public let entrants: [Player]
    /// What the merge worked around; goes to the host and the record.
    public let warnings: [MergeWarning]
    /// Secret until the draw ends. Never put it on the wire before `finished`.
    public let seed: Seed
    /// Hex SHA-256 of the seed, safe to publish before round 1.
    public let commitment: String
    /// Hex SHA-256 of the canonical entrants encoding.
    public let entrantsHash: String
    public let schedule: RoundSchedule
    /// Rounds 1...schedule.rounds, in order.
    public let rounds: [PlannedRound]
    /// Decided by the last round's pick.
    public let outcome: DrawOutcome

    /// Milliseconds after the start at which the result is announced.
    public var finishOffsetMs: Int { schedule.finishOffsetMs }

    /// Computes the plan deterministically. `entrants` must not be empty (a `MergeResult`
    /// guarantees that).
    public static func make(drawId: String, entrants: [Player], warnings: [MergeWarning] = [],
                            seed: Seed, schedule: RoundSchedule) -> DrawPlan {
        precondition(!entrants.isEmpty, "a plan needs at least one entrant")
        let offsets = schedule.roundOffsetsMs
        let rounds = (1...schedule.rounds).map { r -> PlannedRound in
            let i = PickDerivation.index(seed: seed, drawId: drawId, round: r, count: entrants.count)
            return PlannedRound(round: r, offsetMs: offsets[r - 1], pickIndex: i, player: entrants[i])
        }
        return DrawPlan(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed,
                        commitment: seed.commitment, entrantsHash: EntrantsEncoding.hash(entrants),
                        schedule: schedule, rounds: rounds,
                        outcome: DrawOutcome(drawn: rounds[rounds.count - 1].player))
    }

    private init(drawId: String, entrants: [Player], warnings: [MergeWarning], seed: Seed,
                 commitment: String, entrantsHash: String, schedule: RoundSchedule,
                 rounds: [PlannedRound], outcome: DrawOutcome) {
        self.drawId = drawId
        self.entrants = entrants
        self.warnings = warnings
        self.seed = seed
        self.commitment = commitment
        self.entrantsHash = entrantsHash
        self.schedule = schedule
        self.rounds = rounds
        self.outcome = outcome
    }
}
