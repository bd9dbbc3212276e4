import DrawCore

/// What a snapshot shows of a draw that runs on another node of the cluster, folded from the
/// `ClusterEnvelope`s this node received (or read back from Redis for a late joiner). It keeps
/// only JSON parts (`WireMessages.snapshot…`): a node that merely shows a draw never needs its
/// plan, and never holds its seed.
public struct RemoteRoomView: Sendable, Hashable {
    /// The running draw's head (`snapshotDrawHead`) while it runs here-unseen; `nil` otherwise.
    public private(set) var head: [UInt8]?
    /// Its shown rounds, in order (`snapshotRound`).
    public private(set) var rounds: [[UInt8]]
    /// Where a draw that reveals each winner stands (`WireMessages.snapshotProgressObject`), as
    /// its last `winner` or `nextWinner` event said; empty before the first of them.
    public private(set) var progress: [UInt8]
    public private(set) var loading: Bool
    /// The last result another node announced (`snapshotLastResult`); `nil`: none heard of.
    public private(set) var lastResult: [UInt8]?
    public private(set) var drawId: String?

    public init(head: [UInt8]? = nil, rounds: [[UInt8]] = [], progress: [UInt8] = [], loading: Bool = false,
                lastResult: [UInt8]? = nil, drawId: String? = nil) {
        self.head = head
        self.rounds = rounds
        self.progress = head == nil ? [] : progress
        self.loading = loading
        self.lastResult = lastResult
        self.drawId = drawId
    }

    /// The view as the cluster's store keeps it (read when a node's first viewer joins a room).
    public init(stored: StoredRoomView) {
        self.init(head: stored.head, rounds: stored.head == nil ? [] : stored.rounds, progress: stored.progress ?? [],
                  loading: stored.loading,
                  lastResult: stored.lastResult, drawId: stored.head == nil ? nil : stored.drawId)
    }

    /// The draw id a result part (`WireMessages.snapshotLastResult`) begins with.
    public static func drawId(ofResult part: [UInt8]) -> String? {
        let prefix = Array(#"{"drawId":""#.utf8)
        guard part.count >= prefix.count + 32, part.starts(with: prefix) else { return nil }
        return String(decoding: part[prefix.count..<(prefix.count + 32)], as: UTF8.self)
    }

    /// Whether another node's draw is loading or running now, as far as this node heard.
    public var isActive: Bool { loading || head != nil }

    /// The snapshot's `draw` value.
    public var draw: [UInt8] {
        if let head {
            return WireMessages.snapshotRunning(head: head, rounds: rounds, tail: WireMessages.snapshotProgressTail(progress))
        }
        return loading ? WireMessages.snapshotLoading : Array("null".utf8)
    }

    /// Applies one received event. A round is kept only if it is the next one of the draw this
    /// view knows (one missed while the link was down leaves the view as it was; the next
    /// snapshot read from Redis repairs it); a per-winner event (a `round` without an index) of
    /// that draw replaces its progress.
    public mutating func apply(_ envelope: ClusterEnvelope) {
        switch envelope.kind {
        case .loading:
            endDraw()
            loading = true
        case .started:
            endDraw()
            head = envelope.view
            drawId = envelope.drawId
        case .round where envelope.index == nil:
            guard head != nil, envelope.drawId == drawId, !envelope.view.isEmpty else { return }
            progress = envelope.view
        case .round:
            guard head != nil, envelope.drawId == drawId, envelope.index == rounds.count else { return }
            rounds.append(envelope.view)
        case .finished:
            endDraw()
            lastResult = envelope.view
        case .failed, .aborted, .deleted:
            endDraw()
        case .room:
            break   // the list or settings, not the draw: the room's record says them
        }
    }

    /// The draw shown ended, its end learned from the stored view rather than heard (the event
    /// was missed): no draw runs any more; `lastResult`, when given, is the view's.
    public mutating func endShown(lastResult: [UInt8]?) {
        endDraw()
        if let lastResult { self.lastResult = lastResult }
    }

    /// A draw of this node's own began or ended: what was heard from others is older.
    public mutating func supersededLocally(resultToo: Bool) {
        endDraw()
        if resultToo { lastResult = nil }
    }

    private mutating func endDraw() {
        head = nil
        rounds = []
        progress = []
        loading = false
        drawId = nil
    }
}
