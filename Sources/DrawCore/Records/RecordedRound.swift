/// One round of a recorded draw: its planned pick, and when it was actually shown.
public struct RecordedRound: Sendable, Hashable {
    /// 1-based round number.
    public let round: Int
    /// Milliseconds after the start at which the plan had it shown.
    public let offsetMs: Int
    /// Index of the pick in the record's `entrants`.
    public let pickIndex: Int
    /// The picked player, `entrants[pickIndex]`.
    public let player: Player
    /// The `round` message's `sentAt` (epoch ms); `nil` if the round was never shown (the draw
    /// was aborted or interrupted before it).
    public let sentAt: Double?
    /// The winner slot the flip leads to, and its place among that winner's flips (see
    /// `PlannedRound`): 1 and `round` unless the draw reveals each winner.
    public let slot: Int
    public let flip: Int

    public init(round: Int, offsetMs: Int, pickIndex: Int, player: Player, sentAt: Double?,
                slot: Int = 1, flip: Int? = nil) {
        self.slot = slot
        self.flip = flip ?? round
        self.round = round
        self.offsetMs = offsetMs
        self.pickIndex = pickIndex
        self.player = player
        self.sentAt = sentAt
    }

    /// Whether the round reached the viewers.
    public var wasShown: Bool { sentAt != nil }
}
