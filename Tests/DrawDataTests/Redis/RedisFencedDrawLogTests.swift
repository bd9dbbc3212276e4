@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Every shared write of a draw, fenced by its lease's token, on a real redis-server (issue 27):
/// the view folds as the watching nodes do, the escrow follows the draw, an entry under an older
/// token changes nothing and publishes nothing, and a draw's end is claimed once.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisFencedDrawLogTests {
    private static let seed = String(repeating: "ab", count: 32)

    private func entry(_ kind: String, _ drawId: String?, index: Int? = nil, part: String = "", token: UInt64,
                       escrow: FencedEntry.EscrowChange = .keep, end: String? = nil, room: String = "quiz",
                       sequence: UInt64? = nil) -> FencedEntry {
        FencedEntry(room: room, token: token, kind: kind, drawId: drawId, index: index, viewPart: Array(part.utf8),
                    escrow: escrow, endWire: end.map { Array($0.utf8) }, payload: Array("\(kind) \(drawId ?? "-")".utf8),
                    sequence: sequence)
    }

    /// A subscriber of the room's channel, subscribed, and what it heard.
    private static func listening(to server: RedisServerProcess) -> (RedisSubscriber, Inbox<String>) {
        let heard = Inbox<String>()
        let listener = RedisSubscriber(configuration: server.configuration()) { _, payload in
            heard.append(String(decoding: payload, as: UTF8.self))
        }
        listener.start()
        listener.subscribe(RedisKeyspace().eventChannel(room: "quiz"))
        #expect(eventually { listener.subscribedChannels.count == 1 })
        return (listener, heard)
    }

    @Test func theViewFoldsEventsAsTheWatchingNodesDo() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        let log = RedisFencedDrawLog(connection: connection), views = RedisRoomViewStore(connection: connection)
        defer { connection.close() }
        #expect(try views.view(room: "quiz") == StoredRoomView())
        _ = try log.append(entry("loading", nil, token: 5))
        #expect(try views.view(room: "quiz").loading)
        _ = try log.append(entry("started", "d1", part: "HEAD", token: 5))
        _ = try log.append(entry("round", "d1", index: 0, part: "R0", token: 5))
        _ = try log.append(entry("round", "d1", index: 2, part: "R2", token: 5))   // gap: ignored
        _ = try log.append(entry("round", "d0", index: 1, part: "X", token: 5))    // other draw
        _ = try log.append(entry("round", "d1", index: 1, part: "R1", token: 5))
        #expect(try views.view(room: "quiz") == StoredRoomView(head: Array("HEAD".utf8), drawId: "d1",
                                                                rounds: [Array("R0".utf8), Array("R1".utf8)]))
        // A per-winner event (no index) keeps the draw's progress; another draw's, or none, does not.
        _ = try log.append(entry("round", "d1", part: "P1", token: 5))
        _ = try log.append(entry("round", "d0", part: "X", token: 5))
        _ = try log.append(entry("round", "d1", part: "", token: 5))
        #expect(try views.view(room: "quiz").progress == Array("P1".utf8))
        #expect(try views.view(room: "quiz").rounds.count == 2)
        _ = try log.append(entry("finished", "d1", part: "RESULT", token: 5, end: "END1"))
        let end1 = StoredDrawEnd(drawId: "d1", wire: Array("END1".utf8))
        #expect(try views.view(room: "quiz") == StoredRoomView(lastResult: Array("RESULT".utf8), lastEnd: end1))
        _ = try log.append(entry("started", "d2", part: "H2", token: 6))
        _ = try log.append(entry("aborted", "d2", token: 6, end: "END2"))
        #expect(try views.view(room: "quiz") == StoredRoomView(lastResult: Array("RESULT".utf8),
                                                                lastEnd: StoredDrawEnd(drawId: "d2", wire: Array("END2".utf8))))
    }

    @Test func anOlderTokenChangesNothingAndPublishesNothing() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        let log = RedisFencedDrawLog(connection: connection), views = RedisRoomViewStore(connection: connection)
        let (listener, heard) = Self.listening(to: server)
        defer { connection.close(); listener.stop() }

        let draw = EscrowedDraw(drawId: "d1", seedHex: Self.seed, roundsShown: 0, node: "a")
        #expect(try log.append(entry("started", "d1", part: "HEAD", token: 10, escrow: .deposit(draw))) == .accepted(receivers: 1))
        // A takeover under a newer token ends d1 and claims its end.
        #expect(try log.escrowed(room: "quiz") == draw)
        #expect(try log.append(entry("aborted", "d1", token: 11, escrow: .takeOver(drawId: "d1"), end: "TAKEN"))
                == .accepted(receivers: 1))
        #expect(try log.escrowed(room: "quiz") == nil)
        let taken = StoredDrawEnd(drawId: "d1", wire: Array("TAKEN".utf8))
        // The old holder, awake again: its round and its own end are refused, and say how d1 ended.
        let before = try views.view(room: "quiz")
        #expect(try log.append(entry("round", "d1", index: 0, part: "R0", token: 10,
                                     escrow: .deposit(EscrowedDraw(drawId: "d1", seedHex: Self.seed, roundsShown: 1, node: "a"))))
                == .refused(newest: 11, end: taken))
        #expect(try log.append(entry("finished", "d1", part: "RESULT", token: 10, escrow: .clear, end: "MINE"))
                == .refused(newest: 11, end: taken))
        #expect(try views.view(room: "quiz") == before)
        #expect(try log.escrowed(room: "quiz") == nil, "the refused deposit left no escrow")
        // A second takeover of the same draw finds nothing to end.
        #expect(try log.append(entry("aborted", "d1", token: 12, escrow: .takeOver(drawId: "d1"), end: "AGAIN"))
                == .alreadyEnded(end: taken))
        #expect(eventually { heard.count == 2 })
        #expect(heard.all == ["started d1", "aborted d1"], "nothing refused was published")
    }

    @Test func aDrawsEndIsClaimedOnceAndARetryUnderTheSameTokenIsAccepted() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        let log = RedisFencedDrawLog(connection: connection)
        defer { connection.close() }
        #expect(try log.append(entry("finished", "d1", token: 20, escrow: .clear, end: "E")) == .accepted(receivers: 0))
        #expect(try log.append(entry("finished", "d1", token: 20, escrow: .clear, end: "E")) == .accepted(receivers: 0))
        // Under a newer token (a later holder of the room), the end of d1 is still d1's first.
        #expect(try log.append(entry("aborted", "d1", token: 21, escrow: .clear, end: "OTHER"))
                == .alreadyEnded(end: StoredDrawEnd(drawId: "d1", wire: Array("E".utf8))))
        #expect(throws: CoordinationError.self) { try log.append(entry("round", "d1", token: 0)) }
    }

    /// After Redis restarted empty the room has no fence: the holder's next entry is accepted and
    /// puts its token back, so an older one is refused again.
    @Test func anEmptyRestartKeepsTheFenceOfTheNextEntry() throws {
        let server = try RedisServerProcess()
        let log = RedisFencedDrawLog(connection: RedisConnection(configuration: server.configuration()))
        defer { log.connection.close() }
        _ = try log.append(entry("started", "d1", part: "H", token: 30))
        try server.restart()
        #expect(eventually(within: 5) { (try? log.append(entry("round", "d1", index: 0, token: 31))) == .accepted(receivers: 0) })
        #expect(try log.append(entry("round", "d1", index: 1, token: 30)) == .refused(newest: 31, end: nil))
    }

    /// Issue 36: a node retries an entry whose answer it did not get (a timeout, a cut link). One
    /// the log already applied is acknowledged without a second fold or a second publish, so the
    /// other nodes' viewers never get a step twice; one it never applied is applied by the retry;
    /// a refused one stays refused.
    @Test func aRetriedEntryIsAppliedAndPublishedAtMostOnce() throws {
        let server = try RedisServerProcess()
        let connection = RedisConnection(configuration: server.configuration())
        let log = RedisFencedDrawLog(connection: connection), views = RedisRoomViewStore(connection: connection)
        let (listener, heard) = Self.listening(to: server)
        defer { connection.close(); listener.stop() }

        #expect(try log.append(entry("started", "d1", part: "H", token: 40, sequence: 1)) == .accepted(receivers: 1))
        #expect(try log.append(entry("round", "d1", index: 0, part: "R0", token: 40, sequence: 2)) == .accepted(receivers: 1))
        // The answer was lost: the same entry again is acknowledged, not applied or published again.
        #expect(try log.append(entry("round", "d1", index: 0, part: "R0", token: 40, sequence: 2)) == .accepted(receivers: 0))
        #expect(try log.append(entry("round", "d1", index: 1, part: "R1", token: 40, sequence: 3)) == .accepted(receivers: 1))
        #expect(try log.append(entry("finished", "d1", part: "RES", token: 40, escrow: .clear, end: "E", sequence: 4))
                == .accepted(receivers: 1))
        #expect(try log.append(entry("finished", "d1", part: "RES", token: 40, escrow: .clear, end: "E", sequence: 4))
                == .accepted(receivers: 0))
        #expect(try views.view(room: "quiz").lastResult == Array("RES".utf8))
        #expect(eventually { heard.count == 4 })
        #expect(heard.all == ["started d1", "round d1", "round d1", "finished d1"], "each step published once")
        // The same sequence under another token is another entry: fenced as any other.
        #expect(try log.append(entry("started", "d2", part: "H2", token: 39, sequence: 5)) == .refused(newest: 40,
                end: StoredDrawEnd(drawId: "d1", wire: Array("E".utf8))))
    }
}
