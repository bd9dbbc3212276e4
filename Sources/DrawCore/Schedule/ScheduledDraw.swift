/// A draw the host scheduled for a later time (issue 30): everything it will be made of, fixed
/// when it was scheduled, so the draw that starts at `at` is exactly the one committed to.
///
/// The entrants are the room's list as it was at scheduling; later edits of the room's list do
/// not change this draw. The seed is drawn at scheduling and stays secret until the draw ends,
/// is cancelled or is missed; its hash and the entrants' hash are public at once
/// (`commitment`). `plan()` is the one place a scheduled draw becomes a `DrawPlan`: the entry
/// point from pre-committed inputs. With `beacon`, the draw is also committed to round R, the
/// first published at least the server's beacon margin after `at` (docs/FAIRNESS.md §10).
public struct ScheduledDraw: Sendable, Hashable {
    public let drawId: String
    public let room: String
    /// When the draw starts, epoch milliseconds (whole milliseconds).
    public let at: Double
    /// When the host scheduled it, epoch milliseconds: the draw record's `createdAt`.
    public let createdAt: Double
    /// Secret until the draw ends (or is cancelled or missed).
    public let seed: Seed
    /// The room's list at scheduling, in lottery-list order; never empty.
    public let entrants: [Player]
    public let warnings: [MergeWarning]
    public let schedule: RoundSchedule
    /// Winner slots (k), within 1…entrants.count.
    public let winners: Int
    public let reveal: WinnerRevealMode
    /// Where the entrants came from, for the record.
    public let sources: DrawSources
    /// The beacon round R committed to at scheduling (never fetched here); `nil`: a seed-only
    /// draw, whatever beacon the server has when its time comes.
    public let beacon: DrawBeacon?

    public init(drawId: String, room: String, at: Double, createdAt: Double, seed: Seed, entrants: [Player],
                warnings: [MergeWarning], schedule: RoundSchedule, winners: Int, reveal: WinnerRevealMode,
                sources: DrawSources, beacon: DrawBeacon? = nil) {
        precondition(!entrants.isEmpty, "a scheduled draw needs at least one entrant")
        precondition(DrawPlan.isValidWinnerCount(winners, entrants: entrants.count), "1 ≤ winners ≤ entrants")
        self.drawId = drawId
        self.room = room
        self.at = at
        self.createdAt = createdAt
        self.seed = seed
        self.entrants = entrants
        self.warnings = warnings
        self.schedule = schedule
        self.winners = winners
        self.reveal = reveal
        self.sources = sources
        // Only the commitment (chain, R, R's time): its values are fetched at the draw's time.
        self.beacon = beacon.map { DrawBeacon(chainHash: $0.chainHash, round: $0.round, roundAtMs: $0.roundAtMs) }
    }

    /// Round R for a draw scheduled for `at` on `settings`' chain: the first round published at
    /// least the margin after `at`, so nobody (the operator included) knows its randomness before
    /// the draw's moment. `nil` when the chain cannot name one, or R would be too far after `at`
    /// for the countdown's limit (a chain whose period is too long for a live draw).
    public static func beacon(at: Double, settings: BeaconSettings) -> DrawBeacon? {
        guard let beacon = settings.beacon(plannedAtMs: at),
              settings.schedule(RoundSchedule.original, for: beacon, plannedAtMs: at) != nil else { return nil }
        return beacon
    }

    /// What is published at scheduling.
    public var commitment: ScheduledDrawCommitment {
        ScheduledDrawCommitment(drawId: drawId, room: room, at: at, createdAt: createdAt,
                                seedHash: seed.commitment, entrantsHash: EntrantsEncoding.hash(entrants),
                                entrantCount: entrants.count, winners: winners, beacon: beacon)
    }

    /// The draw's plan: `DrawPlan.make` on the committed inputs, as any verifier recomputes it.
    /// A beacon draw's plan waits for its committed round R (no picks yet), its countdown
    /// stretched from `startedAtMs` (the moment it actually starts, which may be after `at`) to
    /// R's time plus the fetch allowance, as a beacon draw started now (§9.1); computed at start
    /// so it stays within the countdown's limit.
    public func plan(startedAtMs: Double? = nil) -> DrawPlan {
        DrawPlan.make(drawId: drawId, entrants: entrants, warnings: warnings, seed: seed,
                      schedule: beacon.map { stretched(until: $0, from: startedAtMs ?? at) } ?? schedule,
                      winners: winners, revealEachWinner: reveal != .together, beacon: beacon)
    }

    /// The countdown lasting until R's time plus the fetch allowance (at least the committed one),
    /// capped at the countdown's limit: past it the draw still waits for R before round 1.
    private func stretched(until beacon: DrawBeacon, from startMs: Double) -> RoundSchedule {
        BeaconSettings.stretched(schedule, until: beacon, from: startMs, pastLimit: .cap) ?? schedule
    }

    /// The record of a scheduled draw that never ran (`cancelled` by its host, or `missed`): its
    /// plan, then at once its end as `aborted` with `reason` and no round shown, so the seed is
    /// revealed and the record verifies like any stopped draw (docs/FAIRNESS.md §10).
    public func unrunRecord(reason: String, at t: Double) -> [DrawWrite] {
        let plan = plan(startedAtMs: t)
        return [.started(NewDrawRecord(room: room, plan: plan, sources: sources, createdAt: createdAt, startedAt: t)),
                .finish(drawId: drawId, ending: .aborted(reason: reason), finishedAt: t, seed: seed)]
    }

    /// `aborted.reason` in the record of a draw its host cancelled before it started.
    public static let cancelledReason = "cancelled"
    /// `aborted.reason` in the record of a draw that could not start at its time (the server was
    /// down past the grace period, the room was gone or busy).
    public static let missedReason = "missed"
}

/// What the room publishes when a draw is scheduled, in its snapshot (`scheduled`) and through
/// `GET /api/draws/ID` before the draw runs: enough to hold the server to it later. The finished
/// draw's seed must hash to `seedHash`, and its entrants to `entrantsHash`.
///
/// A beacon draw's commitment also names its round R (chain, round, R's publication time): the
/// finished draw's record must carry that very round.
public struct ScheduledDrawCommitment: Sendable, Hashable {
    public let drawId: String
    public let room: String
    /// When the draw starts, epoch milliseconds.
    public let at: Double
    /// When it was scheduled (and this commitment published), epoch milliseconds.
    public let createdAt: Double
    /// Hex SHA-256 of the seed (`DrawPlan.commitment`).
    public let seedHash: String
    /// Hex SHA-256 of the canonical entrants (`DrawPlan.entrantsHash`).
    public let entrantsHash: String
    public let entrantCount: Int
    public let winners: Int
    /// The beacon round R committed to (unfetched), or `nil` for a seed-only draw.
    public let beacon: DrawBeacon?

    public init(drawId: String, room: String, at: Double, createdAt: Double, seedHash: String, entrantsHash: String,
                entrantCount: Int, winners: Int, beacon: DrawBeacon? = nil) {
        self.drawId = drawId
        self.room = room
        self.at = at
        self.createdAt = createdAt
        self.seedHash = seedHash
        self.entrantsHash = entrantsHash
        self.entrantCount = entrantCount
        self.winners = winners
        self.beacon = beacon
    }
}
