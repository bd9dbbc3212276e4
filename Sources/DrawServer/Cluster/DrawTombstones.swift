import DrawPresentation

/// The draws a node has seen end in each room, from other nodes' events (issue 27, "receivers are
/// strict"): once a draw's end is known here — finished, failed, aborted (a takeover's
/// `interrupted` included), or superseded by the next draw's start — nothing more of it is shown.
/// So a node that was paused past its lease and wakes up cannot put its rounds or its own end in
/// front of other nodes' viewers after the cluster ended its draw, nor into a later draw.
///
/// A pure value (tested without Redis); `ClusterEventReceiver` keeps one on the service thread.
/// Bounded: the last `perRoom` ended draws of each room, and a room is forgotten when it leaves
/// memory.
struct DrawTombstones {
    /// Ended draws remembered per room: a woken node's stale events concern the draw it was running
    /// (one), and a few more cover draws that ended while this node was away.
    static let perRoom = 8

    private var ended: [String: [String]] = [:]
    /// The newest fencing token seen for each room (its own leases' and other nodes' events').
    private var newest: [String: UInt64] = [:]

    /// Whether another node's `envelope` must not be shown in `room` (which shows draw
    /// `current`): an event of a draw seen ending, one under a lease older than the newest seen
    /// for the room, or a round of a draw other than the one shown.
    func isStale(_ envelope: ClusterEnvelope, showing current: String?, in room: String) -> Bool {
        switch envelope.kind {
        case .deleted, .room: return false
        case .loading, .started, .round, .finished, .failed, .aborted: break
        }
        if let id = envelope.drawId, hasEnded(id, in: room) { return true }
        if let token = envelope.token, let seen = newest[room], token < seen { return true }
        if envelope.kind == .round, let current, envelope.drawId != current { return true }
        return false
    }

    /// A lease with `token` holds `room` (this node's, or another node's event said so).
    mutating func saw(_ token: UInt64, in room: String) {
        newest[room] = max(newest[room] ?? 0, token)
    }

    /// Whether `drawId` has ended in `room` as far as this node knows.
    func hasEnded(_ drawId: String, in room: String) -> Bool {
        ended[room]?.contains(drawId) ?? false
    }

    /// `drawId` ended in `room`.
    mutating func end(_ drawId: String, in room: String) {
        var ids = ended[room, default: []]
        guard !ids.contains(drawId) else { return }
        ids.append(drawId)
        if ids.count > Self.perRoom { ids.removeFirst(ids.count - Self.perRoom) }
        ended[room] = ids
    }

    /// What an envelope of another node says about the end of draws in `room`: its own draw's end,
    /// or, for a new draw's start or loading, the end of the draw this node showed until then.
    mutating func note(_ kind: ClusterEnvelope.Kind, drawId: String?, showing current: String?, in room: String) {
        switch kind {
        case .finished, .failed, .aborted:
            if let drawId { end(drawId, in: room) }
            if let current, current != drawId { end(current, in: room) }
        case .loading, .started:
            if let current, current != drawId { end(current, in: room) }
        case .round, .deleted, .room:
            break
        }
    }

    /// `room` left memory (or was deleted): what was kept for it goes.
    mutating func forget(_ room: String) {
        ended[room] = nil
        newest[room] = nil
    }
}
