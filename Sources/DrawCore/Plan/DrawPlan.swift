/// Everything a draw will do, fixed before round 1: who is in it, what each round shows and when,
/// and the outcome. The server only carries it out.
///
/// A plan is a pure function of (entrants, seed, draw id, schedule, winners, how the winners are
/// revealed): `DrawPlan.make` recomputes it, which is what makes a finished draw verifiable.
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
    /// Every flip, in order: rounds 1...schedule.rounds, then, in a draw that reveals each winner
    /// with its own flips, the flips of winners 2…k (`WinnerReveal`).
    public let rounds: [PlannedRound]
    /// Slot 1's result, decided by the last round's pick: the whole result of a one-winner draw.
    public let outcome: DrawOutcome
    /// Winner slots 1…`winners`, each a different entrant; slot 1 is the last round's pick
    /// (`docs/FAIRNESS.md`, section 5).
    public let winnerPicks: [WinnerPick]
    /// Whether each winner is revealed with its own flips (`docs/FAIRNESS.md` §5a); only ever
    /// true with more than one winner. Fixed before round 1, published in `started`.
    public let revealsEachWinner: Bool
    /// Set when this draw replaces a removed winner of an earlier one (`docs/FAIRNESS.md` §5b).
    public let redrawOf: RedrawLink?
    /// Set for a draw committed to a beacon round (`docs/FAIRNESS.md` §9). Until that round is
    /// fetched the plan has no picks (`isAwaitingBeacon`); `resolved(with:)` makes them.
    public let beacon: DrawBeacon?
    /// How many winners the draw picks (k); published in `started` when more than one.
    public let winners: Int

    /// Flips per winner when each winner is revealed (the schedule's rounds).
    public var roundsPerWinner: Int { schedule.rounds }

    /// Whether the picks wait for the beacon's round: `rounds` and `winnerPicks` are empty and
    /// `outcome` means nothing until `resolved(with:)`. Such a plan is never announced as a result.
    public var isAwaitingBeacon: Bool { beacon.map { !$0.isResolved } ?? false }

    /// The players who won, in slot order: the slots whose entry is not void.
    public var winningPlayers: [Player] { winnerPicks.filter(\.isWinner).map(\.player) }

    /// Milliseconds after the start at which the result is announced.
    public var finishOffsetMs: Int { schedule.finishOffsetMs }

    /// Computes the plan deterministically. `entrants` must not be empty (a `MergeResult`
    /// guarantees that), and `winners` must be within 1…`entrants.count` (the caller checks a
    /// requested count against the list first: see `isValidWinnerCount`).
    public static func make(drawId: String, entrants: [Player], warnings: [MergeWarning] = [],
                            seed: Seed, schedule: RoundSchedule, winners: Int = 1,
                            revealEachWinner: Bool = false, redrawOf: RedrawLink? = nil,
                            beacon: DrawBeacon? = nil) -> DrawPlan {
        precondition(!entrants.isEmpty, "a plan needs at least one entrant")
        precondition(isValidWinnerCount(winners, entrants: entrants.count), "1 ≤ winners ≤ entrants")
        let eachWinner = revealEachWinner && winners > 1
        let hash = EntrantsEncoding.hash(entrants)
        guard beacon == nil || beacon?.value != nil else {
            // Nothing is picked before the beacon's round exists; the placeholder outcome is never
            // published (`isAwaitingBeacon`).
            return DrawPlan(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed,
                            commitment: seed.commitment, entrantsHash: hash, schedule: schedule, rounds: [],
                            outcome: DrawOutcome(drawn: entrants[0]), winnerPicks: [], revealsEachWinner: eachWinner,
                            redrawOf: redrawOf, beacon: beacon, winners: winners)
        }
        // §9: with a beacon every pick is keyed by HMAC(seed, randomness_R); without, by the seed.
        let key = beacon?.value.map { BeaconKey.derive(seed: seed, randomness: $0.randomness) } ?? seed
        let offsets = schedule.roundOffsetsMs
        let rounds = (1...schedule.rounds).map { r -> PlannedRound in
            let i = PickDerivation.index(seed: key, drawId: drawId, round: r, count: entrants.count)
            return PlannedRound(round: r, offsetMs: offsets[r - 1], pickIndex: i, player: entrants[i])
        }
        let slots = PickDerivation.winnerIndices(seed: key, drawId: drawId, rounds: schedule.rounds,
                                                 count: entrants.count, winners: winners)
        let picks = slots.enumerated().map { WinnerPick(slot: $0.offset + 1, pickIndex: $0.element, player: entrants[$0.element]) }
        let later = eachWinner ? WinnerReveal.laterRounds(seed: key, drawId: drawId, entrants: entrants,
                                                          schedule: schedule, slotIndices: slots) : []
        return DrawPlan(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed,
                        commitment: seed.commitment, entrantsHash: hash,
                        schedule: schedule, rounds: rounds + later,
                        outcome: DrawOutcome(drawn: rounds[rounds.count - 1].player), winnerPicks: picks,
                        revealsEachWinner: eachWinner, redrawOf: redrawOf, beacon: beacon, winners: winners)
    }

    /// This plan with its beacon's round fetched: the same draw (id, entrants, seed, schedule,
    /// winners), now with every pick. `nil` when the plan has no beacon, or `value` is not its
    /// round or not self-consistent (`DrawBeacon.resolved(with:)`).
    public func resolved(with value: BeaconRound) -> DrawPlan? {
        guard let resolvedBeacon = beacon?.resolved(with: value) else { return nil }
        return DrawPlan.make(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed, schedule: schedule,
                             winners: winners, revealEachWinner: revealsEachWinner, redrawOf: redrawOf,
                             beacon: resolvedBeacon)
    }

    /// Whether a draw among `entrants` entrants can pick `winners` different ones.
    public static func isValidWinnerCount(_ winners: Int, entrants: Int) -> Bool {
        winners >= 1 && winners <= entrants
    }

    private init(drawId: String, entrants: [Player], warnings: [MergeWarning], seed: Seed,
                 commitment: String, entrantsHash: String, schedule: RoundSchedule,
                 rounds: [PlannedRound], outcome: DrawOutcome, winnerPicks: [WinnerPick],
                 revealsEachWinner: Bool, redrawOf: RedrawLink?, beacon: DrawBeacon?, winners: Int) {
        self.drawId = drawId
        self.entrants = entrants
        self.warnings = warnings
        self.seed = seed
        self.commitment = commitment
        self.entrantsHash = entrantsHash
        self.schedule = schedule
        self.rounds = rounds
        self.outcome = outcome
        self.winnerPicks = winnerPicks
        self.revealsEachWinner = revealsEachWinner
        self.redrawOf = redrawOf
        self.beacon = beacon
        self.winners = winners
    }
}
