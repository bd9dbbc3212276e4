import CLwsShim
@testable import DrawTransport
import Testing

/// lws' per-connection slot: one +1 reference, given back exactly once, whichever of a
/// connection's last callbacks (CLOSED, CLOSED_HTTP, HTTP_DROP_PROTOCOL, WSI_DESTROY) comes first.
@Suite struct SessionSlotTests {
    private final class Object {}

    /// A zeroed slot as lws hands it over, for `body`.
    private func withSlot(_ body: (SessionSlot) -> Void) {
        let memory = UnsafeMutablePointer<ldlws_session>.allocate(capacity: 1)
        memory.initialize(to: ldlws_session())
        defer { memory.deallocate() }
        body(SessionSlot(UnsafeMutableRawPointer(memory))!)
    }

    @Test func theSlotKeepsItsObjectAliveAndGivesItBackOnce() {
        withSlot { slot in
            weak var watched: Object?
            do {
                let object = Object()
                watched = object
                slot.attach(object, kind: .webSocket)
            }
            #expect(watched != nil, "the slot's reference keeps it alive")
            #expect(slot.kind == .webSocket)
            #expect(slot.object(.webSocket, as: Object.self) === watched)
            #expect(slot.object(.http, as: Object.self) == nil, "asked for the wrong kind")
            #expect(slot.take(.http, as: Object.self) == nil)
            #expect(slot.take(.webSocket, as: Object.self) != nil)
            #expect(watched == nil, "taken: the reference went with it")
            #expect(slot.kind == .none)
            #expect(slot.take(.webSocket, as: Object.self) == nil, "a second last callback finds nothing")
        }
    }

    @Test func noSlotNoSession() {
        #expect(SessionSlot(nil) == nil)
    }
}
