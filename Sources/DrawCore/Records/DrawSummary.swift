/// One line of a room's draw history: enough to list it, without entrants, rounds or seed.
///
/// Like `DrawRecord`, its initialiser applies the reveal rule: `outcome` only for `finished`.
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

    /// - Parameter plannedDrawn: the last round's pick as stored; dropped unless `finished`.
    public init(drawId: String, room: String, status: DrawStatus, createdAt: Double, startedAt: Double?,
                finishedAt: Double?, entrantCount: Int, roundsShown: Int, commitment: String?,
                plannedDrawn: Player?, failureCode: String?) {
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
    }
}
