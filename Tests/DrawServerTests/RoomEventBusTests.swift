import DrawCore
@testable import DrawServer
import Testing

/// The in-process bus: room-scoped delivery, and `unsubscribe`, which room eviction relies on
/// (`RoomBroadcaster.roomFreed`): a subscriber holds its room unowned, so after eviction
/// nothing may reach it.
@Suite struct RoomEventBusTests {
    final class Received {
        var log: [String] = []
    }

    static func loading(_ at: Double) -> DrawEvent { .loading(at: at) }

    static func stamp(_ event: DrawEvent) -> Double {
        if case .loading(let at) = event { return at }
        return -1
    }

    @Test func eventsReachOnlyTheirRoomsSubscriber() {
        let bus = InProcessRoomEventBus(), got = Received()
        bus.subscribe(room: "a") { got.log.append("a:\(Self.stamp($0))") }
        bus.subscribe(room: "b") { got.log.append("b:\(Self.stamp($0))") }
        bus.publish(Self.loading(1), room: "a")
        bus.publish(Self.loading(2), room: "b")
        bus.publish(Self.loading(3), room: "nobody")
        #expect(got.log == ["a:1.0", "b:2.0"])
    }

    @Test func anUnsubscribedRoomGetsNothingAndCanSubscribeAgain() {
        let bus = InProcessRoomEventBus(), got = Received()
        bus.subscribe(room: "a") { got.log.append("old a:\(Self.stamp($0))") }
        bus.subscribe(room: "b") { got.log.append("b:\(Self.stamp($0))") }
        bus.unsubscribe(room: "a")
        bus.publish(Self.loading(1), room: "a")
        bus.publish(Self.loading(2), room: "b")
        #expect(got.log == ["b:2.0"])

        bus.subscribe(room: "a") { got.log.append("new a:\(Self.stamp($0))") }
        bus.publish(Self.loading(3), room: "a")
        #expect(got.log == ["b:2.0", "new a:3.0"])
    }
}
