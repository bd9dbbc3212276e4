/// One flip of a draw: when it shows and whom it shows.
public struct PlannedRound: Sendable, Hashable {
    /// 1-based round number across the whole draw. In a draw that reveals each winner with its own
    /// flips (`DrawPlan.revealsEachWinner`) winner `s`'s flips are rounds `(s-1)·R+1 … s·R`, `R`
    /// being the schedule's rounds; otherwise it runs 1…R.
    public let round: Int
    /// Milliseconds after its winner's start at which this round is shown: after `started` for
    /// winner 1 (and in every draw that reveals its winners together), after that winner's own
    /// start for the next ones.
    public let offsetMs: Int
    /// Index of the picked player in the plan's `entrants`.
    public let pickIndex: Int
    /// The picked player (repeats across rounds are allowed).
    public let player: Player
    /// The winner slot this flip leads to (1 in a draw that reveals its winners together).
    public let slot: Int
    /// 1-based position of this flip among its winner's flips (`round` itself for slot 1).
    public let flip: Int

    public init(round: Int, offsetMs: Int, pickIndex: Int, player: Player, slot: Int = 1, flip: Int? = nil) {
        self.round = round
        self.offsetMs = offsetMs
        self.pickIndex = pickIndex
        self.player = player
        self.slot = slot
        self.flip = flip ?? round
    }
}
