/// Where a draw that reveals each winner stands (`DrawSession.revealProgress`).
public struct RevealProgress: Sendable, Hashable {
    /// The winner whose flips are shown, or, while `awaitingHost`, the one just revealed.
    public let slot: Int
    /// When that winner's flips started counting (epoch ms).
    public let slotStartedAt: Double
    /// Winners revealed so far.
    public let revealed: Int
    /// Whether the draw waits for the host's "draw the next winner".
    public let awaitingHost: Bool

    public init(slot: Int, slotStartedAt: Double, revealed: Int, awaitingHost: Bool) {
        self.slot = slot
        self.slotStartedAt = slotStartedAt
        self.revealed = revealed
        self.awaitingHost = awaitingHost
    }
}
