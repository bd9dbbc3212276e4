/// A draw as the store gives it back: the public view of its permanent record.
///
/// The initialiser applies the reveal rules, so no `DrawRecord` can exist that shows more than
/// the viewers have seen — whoever builds it, from whatever was stored:
/// - `seed` is `nil` while the draw is `running` (and for `failed` draws, which never had one);
/// - while `running`, `rounds` holds only the rounds already shown; once the draw has ended it holds
///   every planned round (the revealed seed makes them computable anyway), `sentAt` telling which
///   were shown;
/// - `outcome` and `winnerPicks` are only set for a `finished` draw: an aborted or interrupted one
///   announced no result.
public struct DrawRecord: Sendable, Hashable {
    public let drawId: String
    public let room: String
    public let status: DrawStatus
    /// When the host asked for the draw, epoch milliseconds.
    public let createdAt: Double
    /// The `started` time; `nil` for a `failed` draw.
    public let startedAt: Double?
    /// When it finished, failed, was aborted or was found interrupted; `nil` while `running`.
    public let finishedAt: Double?
    public let sources: DrawSources
    /// The entrants, in lottery-list order (void flags included); empty for a `failed` draw.
    public let entrants: [Player]
    public let warnings: [MergeWarning]
    /// Hex SHA-256 of the seed; `nil` for a `failed` draw.
    public let commitment: String?
    /// Hex SHA-256 of the canonical entrants encoding; `nil` for a `failed` draw.
    public let entrantsHash: String?
    /// `nil` for a `failed` draw.
    public let schedule: RoundSchedule?
    /// See the type's reveal rules.
    public let rounds: [RecordedRound]
    /// The result of slot 1 (the last round's pick); only for a `finished` draw.
    public let outcome: DrawOutcome?
    /// How many winners the draw picks (k), fixed before round 1; 1 for every draw before
    /// several winners existed.
    public let winners: Int
    /// Winner slots 1…k (`docs/FAIRNESS.md`, section 5); only for a `finished` draw, else empty.
    public let winnerPicks: [WinnerPick]
    /// Whether each winner was revealed with its own flips (`docs/FAIRNESS.md` §5a): `rounds`
    /// then holds winner 1's flips, then winner 2's, and so on.
    public let revealsEachWinner: Bool
    /// Set for a redraw: the draw it redraws and the winner it replaces (§5b).
    public let redrawOf: RedrawLink?
    /// A beacon draw's chain and round `R` (`docs/FAIRNESS.md` §9), with the round's randomness
    /// and signature once fetched; `nil` for a draw made with the seed alone. Public from the
    /// start (the round is part of the commitment; its values are public at the beacon).
    public let beacon: DrawBeacon?
    /// The revealed seed; never set while the draw is `running`.
    public let seed: Seed?
    /// Why a `failed` draw failed.
    public let failure: DrawFailure?
    /// Why an `aborted` draw was stopped.
    public let abortReason: String?

    /// Builds the public view from what was stored, applying the reveal rules.
    /// - Parameters:
    ///   - plannedRounds: every round the plan had, shown or not.
    ///   - plannedDrawn: the last round's pick, whatever the status.
    ///   - storedSeed: the seed as stored; dropped here unless the draw has ended.
    ///   - winners: the draw's winner count (k).
    ///   - plannedWinnerPicks: every slot as stored; `nil` for a one-winner draw, whose only slot
    ///     is the last planned round's pick (`plannedDrawn`).
    public init(drawId: String, room: String, status: DrawStatus, createdAt: Double, startedAt: Double?,
                finishedAt: Double?, sources: DrawSources, entrants: [Player], warnings: [MergeWarning],
                commitment: String?, entrantsHash: String?, schedule: RoundSchedule?,
                plannedRounds: [RecordedRound], plannedDrawn: Player?, storedSeed: Seed?,
                failure: DrawFailure?, abortReason: String?,
                winners: Int = 1, plannedWinnerPicks: [WinnerPick]? = nil,
                revealsEachWinner: Bool = false, redrawOf: RedrawLink? = nil, beacon: DrawBeacon? = nil) {
        self.beacon = beacon
        self.drawId = drawId
        self.room = room
        self.status = status
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.sources = sources
        self.entrants = entrants
        self.warnings = warnings
        self.commitment = commitment
        self.entrantsHash = entrantsHash
        self.schedule = schedule
        self.rounds = status.isEnded ? plannedRounds : plannedRounds.filter(\.wasShown)
        self.outcome = status == .finished ? plannedDrawn.map(DrawOutcome.init(drawn:)) : nil
        self.winners = winners
        if status != .finished {
            self.winnerPicks = []
        } else if let plannedWinnerPicks {
            self.winnerPicks = plannedWinnerPicks
        } else if let plannedDrawn, let last = plannedRounds.last {
            self.winnerPicks = [WinnerPick(slot: 1, pickIndex: last.pickIndex, player: plannedDrawn)]
        } else {
            self.winnerPicks = []
        }
        self.revealsEachWinner = revealsEachWinner
        self.redrawOf = redrawOf
        self.seed = status.isEnded ? storedSeed : nil
        self.failure = failure
        self.abortReason = abortReason
    }

    /// How many rounds reached the viewers.
    public var roundsShown: Int { rounds.count(where: \.wasShown) }
}
