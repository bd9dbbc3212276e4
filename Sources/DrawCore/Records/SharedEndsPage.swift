/// One ended draw in the order the cluster's shared store saw draws end (`SharedDrawRecords.ends`).
public struct SharedEnd: Sendable, Hashable {
    /// Where a later read goes on from (opaque, only growing).
    public let cursor: String
    public let drawId: String
    public let room: String
    /// The draw's place in the cluster's history sequence.
    public let position: Int64

    public init(cursor: String, drawId: String, room: String, position: Int64) {
        self.cursor = cursor
        self.drawId = drawId
        self.room = room
        self.position = position
    }

    /// Whether it names a draw (an entry that does not is skipped, its cursor still read past).
    public var isDraw: Bool { !drawId.isEmpty }
}

/// What `SharedDrawRecords.ends` read.
public struct SharedEndsPage: Sendable, Hashable {
    /// The ends after the cursor asked with, oldest first.
    public let ends: [SharedEnd]
    /// The store no longer holds every end after that cursor: some left with the retention window
    /// before this node read them (it was away longer than the window).
    public let gap: Bool

    public init(ends: [SharedEnd], gap: Bool) {
        self.ends = ends
        self.gap = gap
    }
}
