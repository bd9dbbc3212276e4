/// One line of a room's draw history: enough to list it, without entrants, rounds or seed.
///
/// Like `DrawRecord`, its initialiser applies the reveal rule: `outcome` and `winnerPicks` only
/// for `finished`.
public struct DrawSummary: Sendable, Hashable {
    public let drawId: String
    public let room: String
    public let status: DrawStatus
    public let createdAt: Double
    public let startedAt: Double?
    public let finishedAt: Double?
    /// 0 for a `failed` draw.
    public let entrantCount: Int
    /// Rounds that reached the viewers.
    public let roundsShown: Int
    /// `nil` for a `failed` draw.
    public let commitment: String?
    /// Only for a `finished` draw.
    public let outcome: DrawOutcome?
    /// The failure code of a `failed` draw.
    public let failureCode: String?
    /// How many winners the draw picks (k); 1 for every draw before several winners existed.
    public let winners: Int
    /// Every slot's pick, in slot order, for a `finished` draw with `winners > 1` (issue 28: a
    /// history line names every winner, not only the first); empty otherwise.
    public let winnerPicks: [WinnerPick]
    /// For a redraw: the draw it redraws, the winner it replaces and which redraw of the giveaway
    /// it is (issue 37: a history line says so, not just "X won").
    public let redrawOf: RedrawLink?

    /// - Parameters:
    ///   - plannedDrawn: the last round's pick as stored; dropped unless `finished`.
    ///   - plannedWinnerPicks: every slot's pick as stored (k > 1); dropped unless `finished`.
    public init(drawId: String, room: String, status: DrawStatus, createdAt: Double, startedAt: Double?,
                finishedAt: Double?, entrantCount: Int, roundsShown: Int, commitment: String?,
                plannedDrawn: Player?, failureCode: String?, winners: Int = 1, plannedWinnerPicks: [WinnerPick] = [],
                redrawOf: RedrawLink? = nil) {
        self.drawId = drawId
        self.room = room
        self.status = status
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.entrantCount = entrantCount
        self.roundsShown = roundsShown
        self.commitment = commitment
        self.outcome = status == .finished ? plannedDrawn.map(DrawOutcome.init(drawn:)) : nil
        self.failureCode = failureCode
        self.winners = winners
        self.winnerPicks = status == .finished && winners > 1 ? plannedWinnerPicks : []
        self.redrawOf = redrawOf
    }
}
