extension PlanDraw {
    /// Plans a draw committed to a beacon round (`docs/FAIRNESS.md` §9): a fresh seed and draw id,
    /// round `R` named from `plannedAtMs` and the margin, and the countdown stretched to reach `R`.
    /// The plan has no picks until `DrawPlan.resolved(with:)`. `nil` when the chain cannot name a
    /// round, or its round is too far off for the countdown's limit.
    public func execute(_ merge: MergeResult, redrawOf: RedrawLink? = nil, beacon settings: BeaconSettings,
                        plannedAtMs: Double) -> DrawPlan? {
        guard let beacon = settings.beacon(plannedAtMs: plannedAtMs),
              let stretched = settings.schedule(schedule, for: beacon, plannedAtMs: plannedAtMs) else { return nil }
        let (seed, drawId) = freshSeedAndId()
        return DrawPlan.make(drawId: drawId, entrants: merge.players, warnings: merge.warnings, seed: seed,
                             schedule: stretched, winners: redrawOf == nil ? winners : 1,
                             revealEachWinner: reveal != .together, redrawOf: redrawOf, beacon: beacon)
    }
}
