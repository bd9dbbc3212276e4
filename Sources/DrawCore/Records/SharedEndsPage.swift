/// One ended draw in the order the cluster's shared store saw draws end (`SharedDrawRecords.ends`).
public struct SharedEnd: Sendable, Hashable {
    /// Where a later read goes on from (opaque, only growing).
    public let cursor: String
    public let drawId: String
    public let room: String

    public init(cursor: String, drawId: String, room: String) {
        self.cursor = cursor
        self.drawId = drawId
        self.room = room
    }
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
