@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The Redis adapters with the cluster's secret, on a real redis-server (issue 36, finding 8):
/// what they write reads back, and a value changed in Redis, moved to another draw or planted
/// without the seal is refused and reported, never returned.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisStoredSealTests {
    private static let secret = Array("0123456789abcdef0123456789abcdef".utf8)
    private static let seed = String(repeating: "5e", count: 32)
    private let keys = RedisKeyspace()

    /// Collects what the seal refuses (any thread).
    final class Refused: @unchecked Sendable {
        private let lock = NSLock()
        private var kinds: [StoredSeal.Kind] = []
        var all: [StoredSeal.Kind] { lock.withLock { kinds } }
        func add(_ kind: StoredSeal.Kind) { lock.withLock { kinds.append(kind) } }
    }

    private func seal(_ refused: Refused) throws -> StoredSeal {
        try #require(StoredSeal(secret: Self.secret)).reporting { kind, _ in refused.add(kind) }
    }

    private func entry(_ kind: String, _ drawId: String, index: Int? = nil, part: String = "", token: UInt64 = 5,
                       escrow: FencedEntry.EscrowChange = .keep, end: String? = nil) -> FencedEntry {
        FencedEntry(room: "quiz", token: token, kind: kind, drawId: drawId, index: index, viewPart: Array(part.utf8),
                    escrow: escrow, endWire: end.map { Array($0.utf8) }, payload: [])
    }

    @Test func theViewAndEscrowReadBackAndAChangedPartIsRefused() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        defer { connection.close() }
        let refused = Refused()
        let seal = try seal(refused)
        let log = RedisFencedDrawLog(connection: connection, seal: seal)
        let views = RedisRoomViewStore(connection: connection, seal: seal)
        let deposit = EscrowedDraw(drawId: "d1", seedHex: Self.seed, roundsShown: 1, node: "node-a")
        _ = try log.append(entry("started", "d1", part: "HEAD", escrow: .deposit(deposit)))
        _ = try log.append(entry("round", "d1", index: 0, part: "R0"))
        _ = try log.append(entry("round", "d1", index: 1, part: "R1"))
        _ = try log.append(entry("round", "d1", part: "P1"))
        #expect(try views.view(room: "quiz") == StoredRoomView(head: Array("HEAD".utf8), drawId: "d1",
                                                                rounds: [Array("R0".utf8), Array("R1".utf8)],
                                                                progress: Array("P1".utf8)))
        #expect(try log.escrowed(room: "quiz") == deposit)
        // The seed is not in Redis in clear; a plain reader (no secret) does not get it either.
        let stored = try #require(try connection.command("HGET", keys.escrowKey(room: "quiz"), "seed").bytes)
        #expect(stored.firstRange(of: Array(Self.seed.utf8)) == nil)
        #expect(try RedisFencedDrawLog(connection: connection).escrowed(room: "quiz")?.seedHex != Self.seed)
        #expect(refused.all.isEmpty)

        // Rounds swapped: each is bound to its index.
        let rounds = keys.viewRoundsKey(room: "quiz")
        let r0 = try #require(try connection.command("LINDEX", rounds, "0").bytes)
        let r1 = try #require(try connection.command("LINDEX", rounds, "1").bytes)
        _ = try connection.command([Array("LSET".utf8), Array(rounds.utf8), Array("0".utf8), r1])
        _ = try connection.command([Array("LSET".utf8), Array(rounds.utf8), Array("1".utf8), r0])
        #expect(throws: CoordinationError.self) { try views.view(room: "quiz") }
        // The view said to be another draw's: its head is refused.
        _ = try connection.command([Array("LSET".utf8), Array(rounds.utf8), Array("0".utf8), r0])
        _ = try connection.command([Array("LSET".utf8), Array(rounds.utf8), Array("1".utf8), r1])
        #expect(try views.view(room: "quiz").rounds.count == 2)
        _ = try connection.command("HSET", keys.viewKey(room: "quiz"), "drawId", "d9")
        #expect(throws: CoordinationError.self) { try views.view(room: "quiz") }
        #expect(refused.all == [.view, .view])

        // The escrow's count changed in clear, or its seed's box altered: no escrow.
        let escrow = keys.escrowKey(room: "quiz")
        let shown = try #require(try connection.command("HGET", escrow, "roundsShown").bytes)
        _ = try connection.command("HSET", escrow, "roundsShown", "7")
        #expect(try log.escrowed(room: "quiz") == nil)
        _ = try connection.command([Array("HSET".utf8), Array(escrow.utf8), Array("roundsShown".utf8), shown])
        var box = stored
        box[box.count / 2] ^= 0x01
        _ = try connection.command([Array("HSET".utf8), Array(escrow.utf8), Array("seed".utf8), box])
        #expect(try log.escrowed(room: "quiz") == nil)
        _ = try connection.command("HSET", escrow, "seed", Self.seed)
        #expect(try log.escrowed(room: "quiz") == nil)
        #expect(refused.all == [.view, .view, .escrow, .escrow, .escrow])

        // A draw's end, sealed, is opened in a refused entry's answer; forged, it is no end.
        _ = try log.append(entry("finished", "d1", part: "RESULT", end: "END1"))
        #expect(try views.view(room: "quiz").lastEnd == StoredDrawEnd(drawId: "d1", wire: Array("END1".utf8)))
        guard case .refused(_, let end) = try log.append(entry("round", "d1", index: 0, part: "X", token: 4)) else {
            Issue.record("an older token was not refused"); return
        }
        #expect(end == StoredDrawEnd(drawId: "d1", wire: Array("END1".utf8)))
        _ = try connection.command("HSET", keys.viewKey(room: "quiz"), "endWire", "FORGED")
        guard case .refused(_, let forged) = try log.append(entry("round", "d1", index: 0, part: "X", token: 4)) else {
            Issue.record("an older token was not refused"); return
        }
        #expect(forged == nil)
        #expect(throws: CoordinationError.self) { try views.view(room: "quiz") }
    }

    @Test func aRecordOrLineChangedOrMovedIsRefused() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        defer { connection.close() }
        let refused = Refused()
        let records = RedisSharedDrawRecords(connection: connection, seal: try seal(refused))
        for id in ["d1", "d2"] {
            let body = SharedRecordBody(head: Array(#"{"id":"\#(id)","winner":"Ada"}"#.utf8), tail: [], entrants: nil)
            #expect(try records.keep(drawId: id, room: "quiz", summary: Array(#"{"id":"\#(id)"}"#.utf8), body: body,
                                     token: 5, final: true) == .kept)
        }
        #expect(try records.body(drawId: "d1") == Array(#"{"id":"d1","winner":"Ada"}"#.utf8))
        #expect(try records.page(room: "quiz", request: try DrawPageRequest(limit: 10)).summaries.count == 2)
        // A retry of the same final line is still answered kept (the sealed bytes are the same).
        let again = SharedRecordBody(head: Array(#"{"id":"d1","winner":"Ada"}"#.utf8), tail: [], entrants: nil)
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Array(#"{"id":"d1"}"#.utf8), body: again,
                                 token: 5, final: true) == .kept)

        // Forged in clear, or d2's sealed record moved under d1.
        let d1 = keys.drawKey(drawId: "d1")
        _ = try connection.command("SET", d1, #"{"id":"d1","winner":"Eve"}"#)
        #expect(throws: CoordinationError.self) { try records.body(drawId: "d1") }
        let d2 = try #require(try connection.command("GET", keys.drawKey(drawId: "d2")).bytes)
        _ = try connection.command([Array("SET".utf8), Array(d1.utf8), d2])
        #expect(throws: CoordinationError.self) { try records.body(drawId: "d1") }
        // d2's line moved to d1's field: left out of the page.
        let lines = keys.historyLinesKey(room: "quiz")
        let line = try #require(try connection.command("HGET", lines, "d2").bytes)
        _ = try connection.command([Array("HSET".utf8), Array(lines.utf8), Array("d1".utf8), line])
        #expect(try records.page(room: "quiz", request: try DrawPageRequest(limit: 10)).summaries
                == [Array(#"{"id":"d2"}"#.utf8)])
        #expect(refused.all == [.record, .record, .historyLine])
    }

    @Test func aScheduledDrawChangedInRedisIsNeverStarted() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        defer { connection.close() }
        let refused = Refused()
        let store = RedisRoomStore(connection: connection, seal: try seal(refused))
        let draw = RedisScheduledDrawTests.draw(1, room: "quiz", at: 5_000)
        #expect(try store.schedule(draw))
        #expect(try store.scheduledDraws() == [draw])
        #expect(try store.scheduledDraw(id: draw.drawId) == draw)

        // Planted in clear (as this code wrote it without a secret): refused everywhere, and a
        // claim takes it (so no node keeps trying) without starting it.
        _ = try connection.command("SET", keys.scheduledKey(drawId: draw.drawId), StoredJSON.scheduled(draw))
        #expect(try store.scheduledDraws() == [])
        #expect(try store.scheduledDraw(id: draw.drawId) == nil)
        #expect(try store.claimDue(drawId: draw.drawId) == .gone)
        #expect(try connection.command("EXISTS", keys.scheduledKey(drawId: draw.drawId)) == .integer(0))
        #expect(try connection.command("HEXISTS", keys.scheduledRoomsKey, "quiz") == .integer(0))
        #expect(refused.all == [.schedule, .schedule, .schedule])

        // Sealed, a claim takes it whole.
        #expect(try store.schedule(draw))
        #expect(try store.claimDue(drawId: draw.drawId) == .taken(draw))
        #expect(try connection.command("HEXISTS", keys.scheduledRoomsKey, "quiz") == .integer(0))
    }
}
