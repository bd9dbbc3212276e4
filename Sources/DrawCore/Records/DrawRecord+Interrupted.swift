extension DrawRecord {
    /// This `running` record as another node ended it after its own node died (cluster mode's
    /// takeover, docs/SCALING.md): status `interrupted`, as the dead node's own store says once
    /// it restarts (`RecoverInterruptedDraws`), the seed revealed, every planned round recomputed
    /// from it (the same reveal as `aborted(reason:finishedAt:seed:)`).
    ///
    /// The first `roundsShown` rounds count as shown. When their own `sentAt` is not in this
    /// record (the shared `running` record is written at the start, before any round), each is
    /// stamped with when it was due (`startedAt` plus its offset): the node that knew the real
    /// time is gone, and the due time is what it aimed at.
    ///
    /// `nil` unless the record is `running`, `seed` matches its commitment and `roundsShown` is
    /// within the plan.
    public func interrupted(finishedAt: Double, seed: Seed, roundsShown: Int) -> DrawRecord? {
        guard let schedule, (0...schedule.rounds).contains(roundsShown) else { return nil }
        var sentAt: [Int: Double] = [:]
        let start = startedAt ?? createdAt
        for (index, offset) in schedule.roundOffsetsMs.prefix(roundsShown).enumerated() {
            sentAt[index + 1] = start + Double(offset)
        }
        for r in rounds where r.round <= roundsShown { sentAt[r.round] = r.sentAt }
        return ended(as: .interrupted, reason: nil, finishedAt: finishedAt, seed: seed, sentAt: sentAt)
    }
}
