import DrawCore
import DrawPresentation

/// The one way an envelope goes out on a room's channel: encoded, then sealed when the cluster
/// has a secret (`EnvelopeSeal`), so every publish (draw events, `deleted`, `room`, a takeover's
/// `aborted` or `failed`) carries the MAC the other nodes check. `Sendable`: the cluster worker
/// publishes.
struct EnvelopePublisher: Sendable {
    let channel: any ClusterEventChannel
    let seal: EnvelopeSeal?

    func publish(_ envelope: ClusterEnvelope, toRoom room: String) throws(CoordinationError) {
        try channel.publish(sealed(envelope, room: room), toRoom: room)
    }

    /// The bytes that go out for `envelope` on `room`'s channel.
    func sealed(_ envelope: ClusterEnvelope, room: String) -> [UInt8] {
        let bytes = envelope.encode()
        return seal.map { $0.seal(bytes, room: room) } ?? bytes
    }

    /// A draw event as one fenced entry (`FencedDrawLog`): the view part it adds, the escrow
    /// change, and for an end the message every viewer is shown, which claims the draw's end.
    /// `sequence`: the entry's place among this node's entries under `token`, so a retry is
    /// applied at most once (`FencedEntry.sequence`).
    func entry(_ envelope: ClusterEnvelope, room: String, token: UInt64, escrow: FencedEntry.EscrowChange,
               sequence: UInt64? = nil) -> FencedEntry {
        let ends: Bool
        switch envelope.kind {
        case .finished, .aborted, .failed: ends = true
        case .loading, .started, .round, .deleted, .room: ends = false
        }
        return FencedEntry(room: room, token: token, kind: envelope.kind.rawValue, drawId: envelope.drawId,
                           index: envelope.index, viewPart: envelope.view, escrow: escrow,
                           endWire: ends ? envelope.wire : nil, payload: sealed(envelope, room: room), sequence: sequence)
    }
}

/// Why a message on a room's channel was dropped (`ClusterNode.dropped`).
enum DroppedEnvelope: String, Sendable {
    /// The cluster has a secret and the message's MAC is missing or wrong.
    case unauthenticated
    /// Not an envelope this version reads (a cut or malformed message, invalid UTF-8).
    case malformed
}
