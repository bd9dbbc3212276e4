/// One winner slot of a draw (`docs/FAIRNESS.md`, section 5): the entry drawn for it and whether
/// it wins. A draw with `winners: k` has slots 1…k, each a different entrant; slot 1 is always the
/// last flip round's pick.
public struct WinnerPick: Sendable, Hashable {
    /// 1-based slot number.
    public let slot: Int
    /// Index of the drawn entry in the draw's `entrants`.
    public let pickIndex: Int
    /// The drawn entry, `entrants[pickIndex]`.
    public let player: Player

    public init(slot: Int, pickIndex: Int, player: Player) {
        self.slot = slot
        self.pickIndex = pickIndex
        self.player = player
    }

    /// The slot's result: the drawn entry wins unless it is void, in which case the slot stays
    /// empty (no redraw: see `docs/FAIRNESS.md`, section 5).
    public var outcome: DrawOutcome { DrawOutcome(drawn: player) }

    /// Whether the slot has a winner.
    public var isWinner: Bool { !player.isVoid }
}
