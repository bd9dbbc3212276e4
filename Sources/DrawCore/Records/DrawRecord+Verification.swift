/// What anyone needs to recompute a draw's picks (`docs/FAIRNESS.md`, section 1).
public struct DrawVerificationInputs: Sendable, Hashable {
    public let drawId: String
    public let seed: Seed
    public let entrants: [Player]
    public let schedule: RoundSchedule
    /// The draw's winner count (k); 1 for a one-winner draw.
    public let winners: Int
    /// Whether each winner has its own flips (§5a).
    public let revealsEachWinner: Bool
    /// A beacon draw's round (§9): with its randomness the picks are keyed by
    /// HMAC(seed, randomness); without, no pick was made.
    public let beacon: DrawBeacon?

    public init(drawId: String, seed: Seed, entrants: [Player], schedule: RoundSchedule, winners: Int = 1,
                revealsEachWinner: Bool = false, beacon: DrawBeacon? = nil) {
        self.beacon = beacon
        self.revealsEachWinner = revealsEachWinner
        self.drawId = drawId
        self.seed = seed
        self.entrants = entrants
        self.schedule = schedule
        self.winners = winners
    }

    /// Whether `winners` is a count these entrants can give (1…entrants); a record claiming
    /// another cannot be recomputed, so it does not verify.
    public var hasValidWinnerCount: Bool { DrawPlan.isValidWinnerCount(winners, entrants: entrants.count) }

    /// The plan these inputs determine: the same function the server planned the draw with.
    /// - Precondition: `hasValidWinnerCount`.
    public func recomputedPlan() -> DrawPlan {
        DrawPlan.make(drawId: drawId, entrants: entrants, seed: seed, schedule: schedule, winners: winners,
                      revealEachWinner: revealsEachWinner, beacon: beacon)
    }
}

/// The result of checking a record against its own revealed seed.
public struct DrawVerification: Sendable, Hashable {
    /// SHA-256 of the seed equals the recorded commitment.
    public let commitmentMatches: Bool
    /// SHA-256 of the canonical entrants equals the recorded entrants hash.
    public let entrantsHashMatches: Bool
    /// Rounds whose recorded pick differs from the recomputed one (1-based); empty when all agree.
    public let mismatchedRounds: [Int]
    /// The recorded winner count is within 1…entrants.
    public let winnerCountValid: Bool
    /// Winner slots (1-based) whose recorded entry differs from the recomputed one, or that are
    /// missing or extra; empty when all agree (and always for a draw that did not finish).
    public let mismatchedWinnerSlots: [Int]
    /// A beacon draw's round holds together (§9): its randomness is SHA-256 of its signature, it
    /// was published after `started` (so nobody knew it when the commitment was made), and a
    /// finished draw has it. Always true for a draw without a beacon.
    public var beaconValid: Bool = true

    /// Everything agrees.
    public var isValid: Bool {
        commitmentMatches && entrantsHashMatches && mismatchedRounds.isEmpty && winnerCountValid
            && mismatchedWinnerSlots.isEmpty && beaconValid
    }
}

extension DrawRecord {
    /// The verification inputs, once the seed is revealed; `nil` while `running` and for `failed`
    /// draws (no seed, no entrants).
    public var verificationInputs: DrawVerificationInputs? {
        guard let seed, let schedule, !entrants.isEmpty else { return nil }
        return DrawVerificationInputs(drawId: drawId, seed: seed, entrants: entrants, schedule: schedule,
                                      winners: winners, revealsEachWinner: revealsEachWinner, beacon: beacon)
    }

    /// Recomputes the draw from its revealed seed and compares every recorded value; `nil` when
    /// there is nothing to verify yet (see `verificationInputs`).
    public func verify() -> DrawVerification? {
        guard var inputs = verificationInputs else { return nil }
        let countValid = inputs.hasValidWinnerCount
        if !countValid {  // still check what can be checked: the rounds do not depend on k
            inputs = DrawVerificationInputs(drawId: drawId, seed: inputs.seed, entrants: entrants,
                                            schedule: inputs.schedule, beacon: beacon)
        }
        let plan = inputs.recomputedPlan()
        let mismatched = rounds.filter { recorded in
            recorded.round < 1 || recorded.round > plan.rounds.count
                || plan.rounds[recorded.round - 1].pickIndex != recorded.pickIndex
        }.map(\.round)
        var verification = DrawVerification(commitmentMatches: plan.commitment == commitment,
                                            entrantsHashMatches: plan.entrantsHash == entrantsHash,
                                            mismatchedRounds: mismatched, winnerCountValid: countValid,
                                            mismatchedWinnerSlots: countValid ? mismatchedSlots(against: plan) : [])
        verification.beaconValid = beaconHoldsTogether
        return verification
    }

    /// §9's checks of the beacon that need nothing but the record (a relay confirms the round).
    private var beaconHoldsTogether: Bool {
        guard let beacon else { return true }
        guard let value = beacon.value else { return status != .finished }
        return value.round == beacon.round && value.isConsistent && beacon.roundAtMs > (startedAt ?? .infinity)
    }

    /// Slots whose recorded pick is not the recomputed one. Only a finished draw claims slots;
    /// it must claim all k of them, in order, each naming the entrant at its index.
    private func mismatchedSlots(against plan: DrawPlan) -> [Int] {
        guard status == .finished else { return [] }
        let expected = plan.winnerPicks
        let count = max(expected.count, winnerPicks.count)
        return (0..<count).compactMap { i -> Int? in
            guard i < expected.count, i < winnerPicks.count else { return i + 1 }
            let claimed = winnerPicks[i]
            return claimed == expected[i] ? nil : i + 1
        }
    }
}
