import DrawCore

/// The seam between running a draw and showing it: a room's draw events go through here.
///
/// Every node uses `InProcessRoomEventBus`: it carries the events of the draws this node runs
/// from their runners to the broadcaster. What crosses nodes is not the bus' business: each step
/// is appended to where the draw's truth lives first (`DrawStepLog`; in cluster mode a fenced
/// entry that also publishes it on the room's channel), and other nodes' steps arrive through the
/// channel (`ClusterEventReceiver`). The interface is shaped as it is so a draw's events stay
/// plain values:
/// - events are room-scoped (`publish(_:room:)`, `subscribe(room:)`), one channel per room;
/// - the payload is a `DrawEvent`, a plain value (plan, timestamps, error) that a networked bus
///   serialises; every subscriber encodes the wire message itself, once per node. On the node
///   that runs the draw the room reads its phase from the runner's `DrawSession`; a node that
///   only watches would rebuild it from the event stream (`loading`, `started`, `round`,
///   `finished`, `failed`, `aborted`);
/// - `sentAt` is stamped by the publisher just before publishing, so every node shows the same
///   time for a round.
/// Presence is deliberately not on the bus: viewer counts are per node and would need summing,
/// which is a different (aggregating) channel.
///
/// Threading rule: `publish`, `subscribe` and `unsubscribe` are called on the service thread,
/// and implementations must call `deliver` on the service thread (a networked bus hands its
/// incoming messages over through the server's `ServiceInbox`).
protocol RoomEventBus: AnyObject {
    /// Sends one event of `room` to every subscriber of `room`, in publication order.
    func publish(_ event: DrawEvent, room: String)
    /// Registers this node's fan-out for `room` (one per room per node).
    func subscribe(room: String, deliver: @escaping (DrawEvent) -> Void)
    func unsubscribe(room: String)
}

/// The single-process bus: `publish` delivers synchronously, on the service thread, so a
/// round's fan-out starts right after the publisher stamped its `sentAt`.
final class InProcessRoomEventBus: RoomEventBus {
    private var subscribers: [String: (DrawEvent) -> Void] = [:]

    func publish(_ event: DrawEvent, room: String) {
        subscribers[room]?(event)
    }

    func subscribe(room: String, deliver: @escaping (DrawEvent) -> Void) {
        subscribers[room] = deliver
    }

    func unsubscribe(room: String) {
        subscribers[room] = nil
    }
}
