/// A draw whose line in the cluster's shared history this node still owes (its durable outbox,
/// `HistoryOutboxStore`): kept until the shared store acknowledged it (docs/SCALING.md, "One
/// history").
public struct OwedHistoryLine: Sendable, Hashable {
    /// How a draw that another node ran ended here: a takeover revealed its seed after its node
    /// stopped renewing the lease. The record is made from the shared `running` record with these.
    public struct TakeoverEnd: Sendable, Hashable {
        public let seedHex: String
        public let roundsShown: Int
        /// When the takeover ended the draw (epoch ms): the record's `finishedAt`.
        public let endedAt: Double

        public init(seedHex: String, roundsShown: Int, endedAt: Double) {
            self.seedHex = seedHex
            self.roundsShown = roundsShown
            self.endedAt = endedAt
        }
    }

    public let drawId: String
    public let room: String
    /// The fencing token the line is written with; 0: no lease (a record reconciled at start,
    /// a line restored after Redis came back empty), which never matches a claimed end.
    public let token: UInt64
    /// Whether the line is the draw's end (its history line will not change again).
    public let final: Bool
    /// Set when this node ended another node's draw; `nil`: the draw is in this node's own store,
    /// whose record is read when the line is sent.
    public let takeover: TakeoverEnd?

    public init(drawId: String, room: String, token: UInt64, final: Bool, takeover: TakeoverEnd? = nil) {
        self.drawId = drawId
        self.room = room
        self.token = token
        self.final = final
        self.takeover = takeover
    }

    /// This line with `later` folded in (the same draw owed again before it was sent): an end
    /// stays an end, the newer token wins, and a takeover's inputs are kept.
    public func merged(with later: OwedHistoryLine) -> OwedHistoryLine {
        OwedHistoryLine(drawId: drawId, room: room, token: max(token, later.token), final: final || later.final,
                        takeover: later.takeover ?? takeover)
    }
}
