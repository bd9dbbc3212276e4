import DrawCore

/// The room event bus of cluster mode: the in-process bus for this node's own viewers, and
/// Redis for the others. Each event of a draw running here is relayed on the room's channel with
/// its wire bytes, the view and escrow changes it makes (`FencedDraws.publish`); other
/// nodes' events come in through the channel (`ClusterEventReceiver`). Service thread only.
final class ClusterEventBus: RoomEventBus {
    private let local = InProcessRoomEventBus()
    private unowned let rooms: ClusterRooms

    init(rooms: ClusterRooms) { self.rooms = rooms }

    func publish(_ event: DrawEvent, room: String) { local.publish(event, room: room) }
    func subscribe(room: String, deliver: @escaping (DrawEvent) -> Void) { local.subscribe(room: room, deliver: deliver) }
    func unsubscribe(room: String) { local.unsubscribe(room: room) }

    /// Before this node's viewers see it, the event goes to the other nodes (off this thread);
    /// not at all, nor to this node's viewers, once the cluster refused the draw.
    func relay(_ event: DrawEvent, wire: [UInt8], from room: Room) -> Bool {
        rooms.ownDraws.publish(event, wire: wire, room: room)
    }
}
