/// Every write a draw's node makes to the cluster's shared state, fenced (issue 27,
/// docs/SCALING.md "Fencing"): one entry per draw event folds the event into the room's stored
/// view, moves the seed escrow, claims the draw's end (for an end) and publishes the event on the
/// room's channel, all in one atomic step that first checks the entry's token against the room's
/// newest (`RoomLease`). An entry with an older token changes nothing and is refused, so a node
/// that was paused past its lease can neither show the other nodes more of a draw the cluster
/// ended, nor overwrite the next draw's view or escrow.
///
/// Synchronous and blocking (a network round trip): call it from a thread that may wait.
public protocol FencedDrawLog: Sendable {
    /// Applies `entry` if its token is the room's newest (or newer).
    func append(_ entry: FencedEntry) throws(CoordinationError) -> FenceAnswer
    /// The room's seed escrow, read without taking it (a takeover reads it, makes the `aborted`
    /// message, then appends it with `.takeOver`); `nil` when none is held.
    func escrowed(room: String) throws(CoordinationError) -> EscrowedDraw?
}

/// One fenced write of a draw event (`FencedDrawLog.append`).
public struct FencedEntry: Sendable, Hashable {
    /// What the entry does to the room's seed escrow.
    public enum EscrowChange: Sendable, Hashable {
        case keep
        /// The plan is public (or one more round was shown): the seed and count are kept.
        case deposit(EscrowedDraw)
        /// The draw ended: nothing is left to reveal.
        case clear
        /// A takeover ends the escrowed draw `drawId`: applied only if the escrow still holds it
        /// (otherwise the draw ended meanwhile and the answer is `.alreadyEnded`).
        case takeOver(drawId: String)
    }

    public var room: String
    public var token: UInt64
    /// The event's kind as the view folds it (`loading`, `started`, `round`, `finished`,
    /// `failed`, `aborted`).
    public var kind: String
    public var drawId: String?
    public var index: Int?
    /// The snapshot part the event adds to the view (opaque JSON).
    public var viewPart: [UInt8]
    public var escrow: EscrowChange
    /// For the end of a draw: the end message every viewer is shown. The draw's end is claimed
    /// with the entry's token (a later end with another token is refused), and kept for a node
    /// whose own entry is refused, so its viewers see the same end as everyone else's.
    public var endWire: [UInt8]?
    /// What is published on the room's channel (the sealed envelope); empty: nothing is (a view
    /// written back after Redis restarted empty, `ClusterRebuild`).
    public var payload: [UInt8]
    /// The entry's place among its node's entries under `token` (1, 2, …), or `nil` for a
    /// one-off entry (a takeover's, a write-back). A node retries an entry whose answer it did not
    /// get (a timeout, a cut link): the log applies an entry with a sequence at most once, and
    /// acknowledges the retry of one it already applied without applying or publishing it again.
    public var sequence: UInt64?

    public init(room: String, token: UInt64, kind: String, drawId: String?, index: Int?, viewPart: [UInt8],
                escrow: EscrowChange, endWire: [UInt8]?, payload: [UInt8], sequence: UInt64? = nil) {
        self.room = room
        self.token = token
        self.kind = kind
        self.drawId = drawId
        self.index = index
        self.viewPart = viewPart
        self.escrow = escrow
        self.endWire = endWire
        self.payload = payload
        self.sequence = sequence
    }
}

/// What `FencedDrawLog.append` did.
public enum FenceAnswer: Sendable, Hashable {
    /// Applied and published (to `receivers` subscribers).
    case accepted(receivers: Int)
    /// A newer token holds the room: nothing was changed. `end` is the last draw end the cluster
    /// recorded in the room, if any.
    case refused(newest: UInt64, end: StoredDrawEnd?)
    /// The draw's end is already claimed by another token (a takeover ended it), or a takeover
    /// found its draw no longer escrowed: nothing was changed.
    case alreadyEnded(end: StoredDrawEnd?)
}

/// The last draw end recorded in a room's view: which draw, and the message its viewers got.
public struct StoredDrawEnd: Sendable, Hashable {
    public var drawId: String
    public var wire: [UInt8]

    public init(drawId: String, wire: [UInt8]) {
        self.drawId = drawId
        self.wire = wire
    }
}
