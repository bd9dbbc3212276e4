/// What a snapshot shows of a room's draw, kept where every node of a cluster can read it, so a
/// viewer joining any node mid-draw gets the same snapshot (cluster mode, docs/SCALING.md).
///
/// The node running the draw records each of its events' snapshot parts (within its fenced entry,
/// `FencedDrawLog`); a node whose
/// first viewer joins the room reads the whole view back (`view`). The parts are opaque JSON
/// fragments to the store (the presentation layer writes and joins them); the store applies the
/// same folding rules as the receiving nodes: `loading` and `started` begin a draw, a `round`
/// is kept only as the next of the current draw (one without an index, a per-winner event,
/// replaces the draw's progress), `finished` keeps its result, anything else ends the draw.
///
/// Synchronous and blocking (a network round trip): call it from a thread that may wait.
public protocol RoomViewStore: Sendable {

    /// The room's stored view (empty when nothing was recorded).
    func view(room: String) throws(CoordinationError) -> StoredRoomView
}

/// A room's view as `RoomViewStore` keeps it: JSON fragments of the snapshot.
public struct StoredRoomView: Sendable, Hashable {
    /// The running draw's head, `nil` when none runs.
    public var head: [UInt8]?
    public var drawId: String?
    /// Its rounds shown so far, in order.
    public var rounds: [[UInt8]]
    /// Where it stands when it reveals each winner (the `progress` part of its last per-winner
    /// event), `nil` before the first.
    public var progress: [UInt8]?
    /// Players are loading for a new draw.
    public var loading: Bool
    /// The last draw's result, `nil` when none is kept.
    public var lastResult: [UInt8]?
    /// The last draw end recorded (any end: finished, failed, aborted, a takeover's), with the
    /// message its viewers were shown; `nil` when none is kept.
    public var lastEnd: StoredDrawEnd?

    public init(head: [UInt8]? = nil, drawId: String? = nil, rounds: [[UInt8]] = [], progress: [UInt8]? = nil,
                loading: Bool = false, lastResult: [UInt8]? = nil, lastEnd: StoredDrawEnd? = nil) {
        self.head = head
        self.drawId = drawId
        self.rounds = rounds
        self.progress = progress
        self.loading = loading
        self.lastResult = lastResult
        self.lastEnd = lastEnd
    }
}
