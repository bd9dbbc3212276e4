/// Room events fanned out between the nodes of a cluster: one channel per room.
///
/// Meant for cluster mode (issue 14, docs/SCALING.md): the node that runs a room's draw publishes
/// each wire message once; every node with viewers in that room subscribes to it and forwards what
/// arrives to its own viewers. A node subscribes to a room when its first viewer there joins and
/// unsubscribes when the last one leaves, so a node with no viewers in a room receives nothing for it.
///
/// The payload is opaque bytes (the serialised message); the channel neither parses nor keeps it:
/// delivery is at most once, to the nodes subscribed at that moment, and nothing is replayed to a
/// node that subscribes later or was disconnected meanwhile (snapshots cover late joiners).
///
/// Events arrive at the handler the implementation was made with, on the implementation's own
/// thread, in the order the channel delivered them. `subscribe`/`unsubscribe` never block: they
/// record what is wanted, the implementation applies it (and applies it again after a reconnect).
public protocol RoomEventChannel: Sendable {
    /// Sends `payload` to every node subscribed to `room` now. Returns how many received it.
    /// Blocking (a network round trip); call it from a thread that may wait.
    @discardableResult
    func publish(_ payload: [UInt8], toRoom room: String) throws(CoordinationError) -> Int

    /// Starts receiving the room's events (idempotent).
    func subscribe(room: String)

    /// Stops receiving the room's events (idempotent).
    func unsubscribe(room: String)
}
