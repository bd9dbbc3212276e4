/// What anyone needs to recompute a draw's picks (`docs/FAIRNESS.md`, section 1).
public struct DrawVerificationInputs: Sendable, Hashable {
    public let drawId: String
    public let seed: Seed
    public let entrants: [Player]
    public let schedule: RoundSchedule

    public init(drawId: String, seed: Seed, entrants: [Player], schedule: RoundSchedule) {
        self.drawId = drawId
        self.seed = seed
        self.entrants = entrants
        self.schedule = schedule
    }

    /// The plan these inputs determine: the same function the server planned the draw with.
    public func recomputedPlan() -> DrawPlan {
        DrawPlan.make(drawId: drawId, entrants: entrants, seed: seed, schedule: schedule)
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

    /// Everything agrees.
    public var isValid: Bool { commitmentMatches && entrantsHashMatches && mismatchedRounds.isEmpty }
}

extension DrawRecord {
    /// The verification inputs, once the seed is revealed; `nil` while `running` and for `failed`
    /// draws (no seed, no entrants).
    public var verificationInputs: DrawVerificationInputs? {
        guard let seed, let schedule, !entrants.isEmpty else { return nil }
        return DrawVerificationInputs(drawId: drawId, seed: seed, entrants: entrants, schedule: schedule)
    }

    /// Recomputes the draw from its revealed seed and compares every recorded value; `nil` when
    /// there is nothing to verify yet (see `verificationInputs`).
    public func verify() -> DrawVerification? {
        guard let inputs = verificationInputs else { return nil }
        let plan = inputs.recomputedPlan()
        let mismatched = rounds.filter { recorded in
            recorded.round < 1 || recorded.round > plan.rounds.count
                || plan.rounds[recorded.round - 1].pickIndex != recorded.pickIndex
        }.map(\.round)
        return DrawVerification(commitmentMatches: plan.commitment == commitment,
                                entrantsHashMatches: plan.entrantsHash == entrantsHash,
                                mismatchedRounds: mismatched)
    }
}
