/// The running draw's seed, kept where every node of a cluster can reach it, so that if the node
/// running the draw dies another node can end the draw honestly: `interrupted`, with the seed,
/// so the rounds already shown can be verified (cluster mode, docs/SCALING.md).
///
/// The running node deposits when the plan is fixed and again at each round (the count shown
/// grows), and clears it when the draw ends. A node that finds the room's lease lapsed takes the
/// lease, then `withdraw`s: read and removed in one step, so only one node ends the draw.
///
/// Whoever can read this store can learn a running draw's result early: keep it private.
/// Synchronous and blocking: call it from a thread that may wait.
public protocol DrawEscrow: Sendable {
    func deposit(room: String, draw: EscrowedDraw) throws(CoordinationError)
    /// Reads and removes the room's escrow; `nil` when there is none (the draw ended properly).
    func withdraw(room: String) throws(CoordinationError) -> EscrowedDraw?
    func clear(room: String) throws(CoordinationError)
}

/// What ending a draw for a dead node needs.
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
