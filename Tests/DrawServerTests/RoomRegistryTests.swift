import DrawCore
import DrawPresentation
@testable import DrawServer
import DrawTransport
import Testing

/// `RoomRegistry`'s policy on plain `Room`s with an injected clock: idle rooms go after the idle
/// time, at `maxRooms` the least recently used idle room makes way, rooms in use and the lobby
/// never go.
@Suite struct RoomRegistryTests {
    private static let second: UInt64 = 1_000_000_000
    private static let idle: UInt64 = 60 * second

    private final class Evictions {
        var log: [String] = []
    }

    private func registry(maxRooms: Int = 100) -> (RoomRegistry, Evictions) {
        let r = RoomRegistry(maxRooms: maxRooms, idleNanos: Self.idle, pinned: [RoomName.lobby])
        let evictions = Evictions()
        r.onEvict = { room, reason in evictions.log.append("\(room.name):\(reason.rawValue)") }
        r.insertPinned(Self.room(RoomName.lobby))
        return (r, evictions)
    }

    private static func room(_ name: String) -> Room {
        Room(name: name, keyHash: HostKeyHash(of: "k"), outboundQueueLimit: 8, presenceIntervalMs: 10)
    }

    @discardableResult
    private func create(_ r: RoomRegistry, _ name: String, at now: UInt64) -> Room? {
        if case .success(let room) = r.create(named: name, nowNanos: now, build: Self.room) { return room }
        return nil
    }

    /// A viewer, as far as idleness goes (the registry never touches its connection).
    private func watch(_ room: Room) -> ClientConnection {
        let client = ClientConnection(connection: Connection(wsi: OpaquePointer(bitPattern: 0x1000)!), bucket: TokenBucket(ratePerSecond: 1, burst: 1),
                                      maxMessageBytes: 128)
        room.add(client)
        return client
    }

    @Test func idleRoomsGoAfterTheIdleTimeAndTheLobbyNever() {
        let (r, evictions) = registry()
        create(r, "a", at: 0)
        create(r, "b", at: 30 * Self.second)
        r.sweep(nowNanos: Self.idle - 1)
        #expect(r["a"] != nil)
        r.sweep(nowNanos: Self.idle)
        #expect(r["a"] == nil)
        #expect(r["b"] != nil)
        r.sweep(nowNanos: 1_000_000 * Self.idle)
        #expect(r["b"] == nil)
        #expect(r[RoomName.lobby] != nil)
        #expect(evictions.log == ["a:idle", "b:idle"])
        #expect(r.count == 1)
    }

    @Test func aWatchedRoomStaysAndItsIdleTimeStartsWhenTheLastViewerLeaves() {
        let (r, _) = registry()
        let room = create(r, "watched", at: 0)!
        let viewer = watch(room)
        r.refresh(room, nowNanos: 1)
        r.sweep(nowNanos: 10 * Self.idle)
        #expect(r["watched"] != nil)
        room.remove(viewer)
        r.refresh(room, nowNanos: 10 * Self.idle)
        r.sweep(nowNanos: 11 * Self.idle - 1)
        #expect(r["watched"] != nil)
        r.sweep(nowNanos: 11 * Self.idle)
        #expect(r["watched"] == nil)
    }

    @Test func atTheLimitTheLeastRecentlyUsedIdleRoomMakesWay() {
        let (r, evictions) = registry(maxRooms: 4) // the lobby and three
        for (i, name) in ["a", "b", "c"].enumerated() { create(r, name, at: UInt64(i)) }
        // "a" is used (a viewer comes and goes), so "b" is now the least recently used.
        let a = r["a"]!
        let viewer = watch(a)
        r.refresh(a, nowNanos: 10)
        a.remove(viewer)
        r.refresh(a, nowNanos: 11)
        #expect(create(r, "d", at: 12) != nil)
        #expect(evictions.log == ["b:capacity"])
        #expect(r["a"] != nil && r["b"] == nil && r["c"] != nil && r["d"] != nil)
        #expect(r.count == 4)
    }

    @Test func creationIsRefusedOnlyWhenEveryRoomIsInUse() {
        let (r, evictions) = registry(maxRooms: 3)
        var viewers: [ClientConnection] = []
        for name in ["a", "b"] {
            let room = create(r, name, at: 0)!
            viewers.append(watch(room))
            r.refresh(room, nowNanos: 1)
        }
        guard case .failure(.full) = r.create(named: "c", nowNanos: 2, build: Self.room) else {
            Issue.record("expected .full"); return
        }
        guard case .failure(.exists) = r.create(named: "a", nowNanos: 2, build: Self.room) else {
            Issue.record("expected .exists"); return
        }
        #expect(evictions.log.isEmpty)
        #expect(r[RoomName.lobby] != nil) // the idle lobby never makes way either
        r["b"]!.remove(viewers[1])
        r.refresh(r["b"]!, nowNanos: 3)
        #expect(create(r, "c", at: 4) != nil)
        #expect(evictions.log == ["b:capacity"])
    }

    @Test func aRoomThatWentIdleGivesBackItsRingAtTheNextSweep() {
        let (r, _) = registry()
        let room = create(r, "used", at: 0)!
        let viewer = watch(room)
        r.refresh(room, nowNanos: 1)
        room.append(RoomMessage(OutboundMessage(Array("{}".utf8))))
        #expect(room.ring.hasStorage)
        r.sweep(nowNanos: 2)
        #expect(room.ring.hasStorage) // still watched
        room.remove(viewer)
        r.refresh(room, nowNanos: 3)
        r.sweep(nowNanos: 4)
        #expect(!room.ring.hasStorage)
        #expect(r["used"] === room) // released, not evicted
    }
}
