/// What the server hands the store when a draw starts: before `started` is broadcast, so the
/// seed behind the published commitment is on disk before anybody sees the commitment.
public struct NewDrawRecord: Sendable, Hashable {
    public let room: String
    /// The whole plan, seed included: stored from the start, served only once the draw has ended.
    public let plan: DrawPlan
    public let sources: DrawSources
    /// When the host asked for the draw (the `loading` time), epoch milliseconds.
    public let createdAt: Double
    /// When the draw was planned, epoch milliseconds: stored as its `startedAt` until
    /// `DrawRecordStore.stampStarted` records when `started` actually went out (a draw that dies in
    /// between keeps this one).
    public let startedAt: Double

    public init(room: String, plan: DrawPlan, sources: DrawSources, createdAt: Double, startedAt: Double) {
        self.room = room
        self.plan = plan
        self.sources = sources
        self.createdAt = createdAt
        self.startedAt = startedAt
    }

    public var drawId: String { plan.drawId }
}
