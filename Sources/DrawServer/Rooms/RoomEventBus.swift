import DrawCore

/// The seam between running a draw and showing it: a room's draw events go through here.
///
/// One node uses `InProcessRoomEventBus`. In cluster mode `ClusterEventBus` (Cluster/) is the
/// same bus plus Redis: the node that runs a room's draw delivers to its own viewers and relays
/// each event's wire message on the room's channel (`livedraw:room:NAME`); every node with
/// viewers in that room subscribes and fans out to its own clients. That is why the interface is
/// shaped as it is:
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
    /// A subscriber of this node encoded `event` as `wire` for `room`'s viewers and is about to
    /// show it: a bus that spans nodes sends it on to the others. Returns whether this node's
    /// viewers are shown it (false: the draw is no longer this node's to show, cluster mode).
    func relay(_ event: DrawEvent, wire: [UInt8], from room: Room) -> Bool
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

    /// One process: nobody else to tell.
    func relay(_ event: DrawEvent, wire: [UInt8], from room: Room) -> Bool { true }
}
