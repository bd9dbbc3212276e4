import DrawPresentation
import DrawTransport

/// One room broadcast as the ring keeps it: its bytes in the latest protocol and, when v1 clients
/// were in the room and the message differs for them (`started`, `finished`: the entrants list),
/// their bytes too. Both are serialised once per room, never per client.
struct RoomMessage {
    let latest: OutboundMessage
    let v1: OutboundMessage?

    init(_ latest: OutboundMessage, v1: OutboundMessage? = nil) {
        self.latest = latest
        self.v1 = v1
    }

    /// What a client speaking `version` is sent.
    @inline(__always)
    func bytes(for version: WireVersion) -> OutboundMessage {
        version == .v1 ? (v1 ?? latest) : latest
    }
}
