import DrawCore
import DrawPresentation
@testable import DrawServer
import Foundation
import Testing

/// `RoomHeartbeat`: a watched room that broadcast nothing for the interval gets one `heartbeat`,
/// a room whose ring moves (a draw, `presence`) gets none, an empty room none, and the message is
/// encoded once per tick for every room. Time is passed in, never waited for.
@Suite struct RoomHeartbeatTests {
    private static let second: UInt64 = 1_000_000_000

    private static func room(_ name: String) -> Room {
        Room(name: name, keyHash: HostKeyHash(of: "k"), outboundQueueLimit: 8, presenceIntervalMs: 10)
    }

    private static func watch(_ room: Room) {
        room.add(ClientConnection(connection: Connection(wsi: OpaquePointer(bitPattern: 0x1000)!), bucket: TokenBucket(ratePerSecond: 1, burst: 1),
                                  maxMessageBytes: 128))
    }

    /// Ticks once a second from `from` to `to` seconds; the seconds at which `room` got a heartbeat.
    private static func run(_ beat: RoomHeartbeat, _ rooms: [Room], seconds: ClosedRange<UInt64>,
                            broadcastAt: Set<UInt64> = []) -> [String: [UInt64]] {
        var log: [String: [UInt64]] = [:]
        for t in seconds {
            if broadcastAt.contains(t) { for room in rooms { room.append(RoomMessage(OutboundMessage([0x7B, 0x7D]))) } }
            beat.tick(rooms, nowNanos: t * second, epochMillis: { 1000 }) { room, bytes in
                room.append(RoomMessage(OutboundMessage(bytes)))
                log[room.name, default: []].append(t)
            }
        }
        return log
    }

    @Test func aQuietWatchedRoomHearsOneEveryInterval() {
        let room = Self.room("a")
        Self.watch(room)
        let log = Self.run(RoomHeartbeat(intervalSeconds: 5), [room], seconds: 0...16)
        // First seen at 0 s, then due every 5 s after each one sent.
        #expect(log["a"] == [5, 10, 15])
    }

    @Test func broadcastsPutTheHeartbeatOff() {
        let room = Self.room("a")
        Self.watch(room)
        // A draw's rounds every 2 s: never 5 s quiet.
        let log = Self.run(RoomHeartbeat(intervalSeconds: 5), [room], seconds: 0...12, broadcastAt: [2, 4, 6, 8, 10, 12])
        #expect(log["a"] == nil)
    }

    @Test func emptyRoomsAndAZeroIntervalSendNothing() {
        let empty = Self.room("empty")
        #expect(Self.run(RoomHeartbeat(intervalSeconds: 5), [empty], seconds: 0...20).isEmpty)
        let watched = Self.room("watched")
        Self.watch(watched)
        #expect(Self.run(RoomHeartbeat(intervalSeconds: 0), [watched], seconds: 0...20).isEmpty)
    }

    @Test func oneEncodingServesEveryRoomOfATick() {
        let rooms = (0..<3).map { Self.room("r\($0)") }
        rooms.forEach(Self.watch)
        let beat = RoomHeartbeat(intervalSeconds: 1)
        var clockReads = 0
        var sent: [[UInt8]] = []
        for t: UInt64 in 0...1 {
            beat.tick(rooms, nowNanos: t * Self.second, epochMillis: { clockReads += 1; return 1234.5 }) { _, bytes in sent.append(bytes) }
        }
        #expect(sent.count == 3)
        #expect(clockReads == 1)
        #expect(Set(sent).count == 1)
        let json = try? JSONSerialization.jsonObject(with: Data(sent[0])) as? [String: Any]
        #expect(json?["type"] as? String == "heartbeat")
        #expect(json?["intervalMs"] as? Int == 1000)
        #expect(json?["serverTime"] as? Double == 1234.5)
    }

    @Test func aClockThatGoesBackDoesNotFireEarly() {
        let beat = RoomHeartbeat(intervalSeconds: 5)
        var quiet: RoomHeartbeat.Quiet? = .init(seq: 3, sinceNanos: 10 * Self.second)
        #expect(!beat.isDue(&quiet, seq: 3, nowNanos: 2 * Self.second))
        #expect(beat.isDue(&quiet, seq: 3, nowNanos: 15 * Self.second))
    }
}
