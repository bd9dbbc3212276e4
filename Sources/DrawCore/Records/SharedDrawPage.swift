/// One page of a room's history as the cluster keeps it (`SharedDrawRecords.page`): the summary
/// lines as they were kept (JSON objects), newest first.
public struct SharedDrawPage: Sendable, Hashable {
    /// Each draw's summary line, as `SharedDrawRecords.keep` received it.
    public let summaries: [[UInt8]]
    /// Each line's position in the cluster's history sequence (empty when not known), so a page
    /// can be merged with a node's archived lines (`DrawArchive.archivedLines`).
    public let positions: [Int64]
    /// Where the next (older) page starts; `nil` on the last page.
    public let next: DrawCursor?
    /// Whether the room has any draw in the shared history at all (an empty page past the last
    /// draw of a known room is still that room's, not an unknown room).
    public let roomHasDraws: Bool

    public init(summaries: [[UInt8]], positions: [Int64] = [], next: DrawCursor?, roomHasDraws: Bool) {
        self.summaries = summaries
        self.positions = positions
        self.next = next
        self.roomHasDraws = roomHasDraws
    }
}
