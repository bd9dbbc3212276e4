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
        let bytes = envelope.encode()
        try channel.publish(seal.map { $0.seal(bytes, room: room) } ?? bytes, toRoom: room)
    }
}

/// Why a message on a room's channel was dropped (`ClusterNode.dropped`).
enum DroppedEnvelope: String, Sendable {
    /// The cluster has a secret and the message's MAC is missing or wrong.
    case unauthenticated
    /// Not an envelope this version reads (a cut or malformed message, invalid UTF-8).
    case malformed
}
