/// The running draw's seed, kept where every node of a cluster can reach it, so that if the node
/// running the draw dies another node can end the draw honestly: `interrupted`, with the seed,
/// so the rounds already shown can be verified (cluster mode, docs/SCALING.md).
///
/// The running node deposits it when the plan is fixed and again at each round (the count shown
/// grows), and clears it when the draw ends, each time within its fenced entry
/// (`FencedDrawLog`). Whoever can read the store can learn a running draw's result early: keep
/// it private.
public struct EscrowedDraw: Sendable, Hashable {
    public var drawId: String
    /// The seed, hex.
    public var seedHex: String
    /// Rounds shown when it was deposited.
    public var roundsShown: Int
    /// The node running the draw.
    public var node: String

    public init(drawId: String, seedHex: String, roundsShown: Int, node: String) {
        self.drawId = drawId
        self.seedHex = seedHex
        self.roundsShown = roundsShown
        self.node = node
    }
}
