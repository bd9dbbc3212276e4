/// One flip of a draw: when it shows and whom it shows.
public struct PlannedRound: Sendable, Hashable {
    /// 1-based round number.
    public let round: Int
    /// Milliseconds after the draw's start at which this round is shown.
    public let offsetMs: Int
    /// Index of the picked player in the plan's `entrants`.
    public let pickIndex: Int
    /// The picked player (repeats across rounds are allowed).
    public let player: Player

    public init(round: Int, offsetMs: Int, pickIndex: Int, player: Player) {
        self.round = round
        self.offsetMs = offsetMs
        self.pickIndex = pickIndex
        self.player = player
    }
}
