@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The shared history's keep script on a real redis-server (issue 27, "One history"): one end
/// per draw, claimed by the first final write with its fencing token; retries are idempotent,
/// another token is refused, a `running` line never follows an end, token 0 never matches a
/// claim, and a draw keeps the position its first keep gave it.
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisHistoryFencingTests {
    static func line(_ id: String, _ status: String, _ extra: String = "") -> [UInt8] {
        Array(#"{"drawId":"\#(id)","status":"\#(status)"\#(extra)}"#.utf8)
    }

    /// What the room's history holds: each draw's line, newest first, and how many ids it lists.
    static func history(_ records: RedisSharedDrawRecords, room: String = "quiz") throws -> (lines: [[UInt8]], ids: Int) {
        let page = try records.page(room: room, request: DrawPageRequest(limit: 100))
        guard case .integer(let ids) = try records.connection.command("ZCARD", records.keyspace.historyKey(room: room)) else {
            return (page.summaries, -1)
        }
        return (page.summaries, Int(ids))
    }

    static func claim(_ records: RedisSharedDrawRecords, _ id: String) throws -> String? {
        try records.connection.command("GET", records.keyspace.drawEndKey(drawId: id)).text
    }

    /// A fresh redis-server and the shared history on it (close the connection when done).
    static func open() throws -> (RedisServerProcess, RedisSharedDrawRecords) {
        let server = try RedisServerProcess()
        return (server, RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration())))
    }

    @Test func theFirstEndClaimsTheDrawAndOnlyItsTokenWritesAgain() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "running"), body: [1],
                                 token: 5, final: false) == .kept)
        #expect(try Self.claim(records, "d1") == nil, "a running line claims nothing")
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "finished"), body: [2],
                                 token: 5, final: true) == .kept)
        #expect(try Self.claim(records, "d1") == "5")
        // Another token's end (a takeover after the end, a woken node after a takeover): refused.
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "interrupted"), body: [3],
                                 token: 6, final: true) == .refused)
        // A running line after the end, even with the same token: refused.
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "running"), body: [4],
                                 token: 5, final: false) == .refused)
        // The same token again (a retry, or a later form of the same end): kept.
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "finished", #","n":1"#), body: [5],
                                 token: 5, final: true) == .kept)
        #expect(try records.body(drawId: "d1") == [5])
        let history = try Self.history(records)
        #expect(history.lines == [Self.line("d1", "finished", #","n":1"#)] && history.ids == 1)
    }

    @Test func tokenZeroIsAcceptedOnlyWhileNoEndIsClaimed() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        // A reconciled record with nothing claimed: kept, and it claims the end.
        #expect(try records.keep(drawId: "r", room: "quiz", summary: Self.line("r", "interrupted"), body: [1],
                                 token: 0, final: true) == .kept)
        #expect(try Self.claim(records, "r") == "0")
        // Token 0 never matches a claim, 0 included: another line is refused...
        #expect(try records.keep(drawId: "r", room: "quiz", summary: Self.line("r", "interrupted", #","x":2"#), body: [2],
                                 token: 0, final: true) == .refused)
        // ...but the same line again (its first answer was lost) is acknowledged, unchanged.
        #expect(try records.keep(drawId: "r", room: "quiz", summary: Self.line("r", "interrupted"), body: [9],
                                 token: 0, final: true) == .kept)
        #expect(try records.body(drawId: "r") == [1])

        // A takeover claimed the end first (with its token): the restart's reconciled record is refused.
        #expect(try records.keep(drawId: "t", room: "quiz", summary: Self.line("t", "interrupted", #","by":"takeover""#),
                                 body: [1], token: 9, final: true) == .kept)
        #expect(try records.keep(drawId: "t", room: "quiz", summary: Self.line("t", "interrupted", #","by":"restart""#),
                                 body: [2], token: 0, final: true) == .refused)
        #expect(try records.body(drawId: "t") == [1])
    }

    /// The fencing work makes the takeover claim the end atomically with its `aborted` publish
    /// (`SET draw-end:D token`); its own history write afterwards must get through.
    @Test func theTakeoversOwnWriteAfterItsClaimIsKept() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        try records.keep(drawId: "d", room: "quiz", summary: Self.line("d", "running"), body: [1], token: 3, final: false)
        _ = try records.connection.command("SET", records.keyspace.drawEndKey(drawId: "d"), "8")
        #expect(try records.keep(drawId: "d", room: "quiz", summary: Self.line("d", "finished"), body: [2],
                                 token: 3, final: true) == .refused, "the paused node's end lost to the takeover")
        #expect(try records.keep(drawId: "d", room: "quiz", summary: Self.line("d", "interrupted"), body: [3],
                                 token: 8, final: true) == .kept)
        #expect(try Self.history(records).lines == [Self.line("d", "interrupted")])
    }

    /// Retries never add a line: a draw keeps the position its first keep gave it, also when
    /// another draw was kept in between.
    @Test func aDrawKeepsItsFirstPosition() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        try records.keep(drawId: "a", room: "quiz", summary: Self.line("a", "running"), body: [], token: 1, final: false)
        try records.keep(drawId: "b", room: "quiz", summary: Self.line("b", "running"), body: [], token: 2, final: false)
        for _ in 0..<3 {
            try records.keep(drawId: "a", room: "quiz", summary: Self.line("a", "finished"), body: [], token: 1, final: true)
        }
        let history = try Self.history(records)
        #expect(history.ids == 2)
        #expect(history.lines == [Self.line("b", "running"), Self.line("a", "finished")], "b began after a: newest first")
    }

    /// `missing` answers the draws without a record, in order, past one script's batch.
    @Test func missingDrawsAreFoundPastOneBatch() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let ids = (0..<(RedisSharedDrawRecords.missingBatch + 7)).map { "m\($0)" }
        let kept = Set(ids.enumerated().filter { $0.offset % 3 == 0 }.map(\.element))
        for id in ids where kept.contains(id) {
            try records.keep(drawId: id, room: "quiz", summary: Self.line(id, "running"), body: [1], token: 0, final: false)
        }
        #expect(try records.missing(drawIds: ids) == ids.filter { !kept.contains($0) })
        #expect(try records.missing(drawIds: []) == [])
    }

    /// Issue 36, finding 1: a node killed mid-draw and restarted at once reconciles its draw as
    /// `interrupted` and owes that line with token 0. While the room's escrow still holds the draw
    /// (no fenced end yet) no line may claim the end, whatever its token: it is held, so the end
    /// recorded is one a fenced entry published (a takeover's here), and the reconciled line is
    /// refused after it. Without an escrowed draw (it ended, or Redis lost it) token 0 still
    /// claims an unclaimed end.
    @Test func aReconciledEndOfADrawStillEscrowedWaitsForTheTakeover() throws {
        let (server, records) = try Self.open()
        defer { records.connection.close(); server.stop() }
        let escrow = records.keyspace.escrowKey(room: "quiz")
        _ = try records.connection.command("HSET", escrow, "drawId", "d1", "seed", "ab", "roundsShown", "3", "node", "n1")
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "running"), body: [1],
                                 token: 5, final: false) == .kept)
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "interrupted"), body: [2],
                                 token: 0, final: true) == .held)
        // The running node's own end line, sent before its fenced end entry got through: held too.
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "finished"), body: [5],
                                 token: 5, final: true) == .held)
        #expect(try Self.claim(records, "d1") == nil, "nothing claimed: the takeover still can")
        // Another draw of the room escrowed is not this one's: its end is claimed as before.
        #expect(try records.keep(drawId: "d0", room: "quiz", summary: Self.line("d0", "interrupted"), body: [3],
                                 token: 0, final: true) == .kept)
        // The takeover ends d1 (its fenced entry takes the escrow and claims the end with its token).
        _ = try records.connection.command("DEL", escrow)
        _ = try records.connection.command("SET", records.keyspace.drawEndKey(drawId: "d1"), "9")
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "interrupted", #","t":1"#),
                                 body: [4], token: 9, final: true) == .kept)
        #expect(try records.keep(drawId: "d1", room: "quiz", summary: Self.line("d1", "interrupted"), body: [2],
                                 token: 0, final: true) == .refused)
        #expect(try records.body(drawId: "d1") == [4])
    }
}
