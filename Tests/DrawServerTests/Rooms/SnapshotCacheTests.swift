import DrawCore
import DrawPresentation
@testable import DrawServer
import DrawTransport
import Foundation
import Testing

/// A room encodes its snapshot's costly parts once per change, not once per joiner (issue 17's
/// join storms), and a change of what the snapshot shows makes it encode them again.
@Suite struct SnapshotCacheTests {
    private static func room() -> Room {
        Room(name: "r1", keyHash: HostKeyHash(of: "k"), outboundQueueLimit: 8, presenceIntervalMs: 10)
    }

    private static func plan() -> DrawPlan {
        let seed = Seed(bytes: (0..<32).map { UInt8($0) })!
        return DrawPlan.make(drawId: String(repeating: "0", count: 31) + "1", entrants: RunningServer.players,
                             seed: seed, schedule: .original)
    }

    private static func join(_ room: Room) {
        room.add(ClientConnection(connection: Connection(wsi: OpaquePointer(bitPattern: 0x1000)!),
                                  bucket: TokenBucket(ratePerSecond: 1, burst: 1), maxMessageBytes: 128))
    }

    @Test func twoJoinersWithNoChangeBetweenThemShareOneEncoding() {
        let room = Self.room()
        Self.join(room)
        let first = room.snapshotParts()
        Self.join(room) // a new viewer count is the envelope's, not the parts'
        let second = room.snapshotParts()
        #expect(room.snapshotEncodings == 1)
        #expect(first.draw == second.draw && first.lastResult == second.lastResult)
    }

    @Test func anAppliedEventOrARestoredResultEncodesAgain() throws {
        let room = Self.room()
        let before = room.snapshotParts()
        #expect(String(decoding: before.lastResult, as: UTF8.self) == "null")
        let plan = Self.plan()
        _ = room.apply(.finished(plan, startedAt: 1000, finishedAt: 2000))
        let after = room.snapshotParts()
        #expect(room.snapshotEncodings == 2)
        #expect(String(decoding: after.lastResult, as: UTF8.self).contains(plan.drawId))
        _ = room.snapshotParts()
        #expect(room.snapshotEncodings == 2)

        let restored = Self.room()
        _ = restored.snapshotParts()
        restored.restoreLastResult(FinishedDraw(plan: plan, startedAt: 1000, finishedAt: 2000))
        #expect(String(decoding: restored.snapshotParts().lastResult, as: UTF8.self).contains(plan.drawId))
        #expect(restored.snapshotEncodings == 2)
    }

    @Test func theSnapshotMessageIsTheSameAsEncodedWhole() {
        let room = Self.room()
        _ = room.apply(.finished(Self.plan(), startedAt: 1000, finishedAt: 2000))
        let parts = room.snapshotParts()
        let cached = WireMessages.snapshot(room: room.name, viewers: room.shownViewers, serverTime: 5,
                                           draw: parts.draw, lastResult: parts.lastResult)
        #expect(cached == WireMessages.snapshot(room.view(), serverTime: 5))
    }
}
