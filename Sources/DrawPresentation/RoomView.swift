import DrawCore

/// What the presenter needs to know about a room to write a snapshot. The server fills it from
/// its room state; the presenter decides what of it reaches the wire (never the seed of a
/// running draw).
public struct RoomView: Sendable {
    /// The phase of the room's current draw.
    public enum Current: Sendable {
        case idle
        case loading
        /// `shown` holds `sentAt` of every round already broadcast, in order.
        case running(DrawPlan, startedAt: Double, shown: [Double])
    }

    public var room: String
    public var viewers: Int
    public var current: Current
    public var lastResult: FinishedDraw?
    /// The room's next draw as it stands (settings, own list); `nil` writes none of it.
    public var info: RoomInfo?

    public init(room: String, viewers: Int, current: Current, lastResult: FinishedDraw?, info: RoomInfo? = nil) {
        self.room = room
        self.viewers = viewers
        self.current = current
        self.lastResult = lastResult
        self.info = info
    }
}

/// A draw that ran to its end: everything needed to show and verify its result.
public struct FinishedDraw: Sendable {
    public let plan: DrawPlan
    public let startedAt: Double
    public let finishedAt: Double

    public init(plan: DrawPlan, startedAt: Double, finishedAt: Double) {
        self.plan = plan
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}
