/// How long the cluster's shared store keeps an ended draw (issue 44, docs/SCALING.md
/// "Retention"): its record, its entrants' reference, its end claim and its history line leave
/// Redis `windowMs` after the draw ended, and a room's history there holds at most `perRoom`
/// lines (the oldest go first). A list no kept draw references leaves with the last of them.
///
/// Nothing is lost for readers: every node keeps each ended draw it learns of in its own store
/// (`DrawArchive`), and reads fall back to it once Redis has let the draw go.
public struct HistoryRetention: Sendable, Hashable {
    /// How long after its end a draw stays in the shared store, in milliseconds.
    public let windowMs: Int64
    /// The most history lines the shared store keeps per room.
    public let perRoom: Int

    /// A day, and 1,000 draws a room: a day's draws of a busy room, kept for the nodes that were
    /// away (restarted, cut off) to catch up from.
    public static let standard = HistoryRetention(windowMs: 86_400_000, perRoom: 1_000)

    /// The window's bounds: a second (tests) to ten years; the cap's: 1 to a million lines.
    public static let windowRange: ClosedRange<Int64> = 1_000...315_360_000_000
    public static let perRoomRange: ClosedRange<Int> = 1...1_000_000

    /// Clamped into the ranges above, so a store never gets a window it cannot express.
    public init(windowMs: Int64, perRoom: Int) {
        self.windowMs = min(max(windowMs, Self.windowRange.lowerBound), Self.windowRange.upperBound)
        self.perRoom = min(max(perRoom, Self.perRoomRange.lowerBound), Self.perRoomRange.upperBound)
    }
}
