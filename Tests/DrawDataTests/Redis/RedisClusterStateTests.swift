@testable import DrawData
import DrawCore
import Foundation
import Testing

/// The rest of cluster mode's shared state on a real redis-server: presence summed across nodes
/// (the view and the escrow: `RedisFencedDrawLogTests`).
@Suite(.enabled(if: RedisServerProcess.isInstalled, RedisServerProcess.skipMessage))
struct RedisClusterStateTests {
    @Test func presenceIsSummedAcrossNodesAndALeftNodeDropsOut() throws {
        let server = try RedisServerProcess()
        let board = RedisPresenceBoard(connection: RedisConnection(configuration: server.configuration()))
        defer { board.connection.close() }
        _ = try board.report(room: "quiz", node: "a", viewers: 4, ttlMs: 3_000)
        let seenByB = try board.report(room: "quiz", node: "b", viewers: 2, ttlMs: 3_000)
        #expect(PresenceReport.othersTotal(seenByB, excluding: "b") == 4)
        // A reported 0: its field is gone.
        let afterLeave = try board.report(room: "quiz", node: "a", viewers: 0, ttlMs: 3_000)
        #expect(afterLeave.map(\.node) == ["b"])
        #expect(PresenceReport.othersTotal(afterLeave, excluding: "a") == 2)
    }

    /// A dead node's report counts until it expires by Redis' clock (`TIME` in the script), which
    /// also sets the expiry: what a node's own clock says plays no part (issue 36).
    @Test func aReportExpiresByRedisClock() throws {
        let server = try RedisServerProcess()
        let board = RedisPresenceBoard(connection: RedisConnection(configuration: server.configuration()))
        defer { board.connection.close() }
        let time = try board.connection.coordinate(["TIME"], idempotent: true)
        guard case .array(let parts) = time, parts.count == 2, let s = parts[0].text.flatMap(Double.init),
              let us = parts[1].text.flatMap(Double.init) else { Issue.record("TIME answered \(time)"); return }
        let redisNowMs = s * 1_000 + (us / 1_000).rounded(.down)
        let dying = try board.report(room: "quiz", node: "dead", viewers: 5, ttlMs: 200)
        let expires = try #require(dying.first?.expiresAtMs)
        #expect(expires >= redisNowMs + 200 && expires < redisNowMs + 200 + 5_000, "expiry by Redis' clock")
        #expect(PresenceReport.othersTotal(try board.report(room: "quiz", node: "b", viewers: 2, ttlMs: 3_000), excluding: "b") == 5)
        // Polled with a deadline: the dead node's 200 ms run out by Redis' clock.
        let deadline = ContinuousClock.now + .seconds(5)
        var others = 5
        while others != 0, ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            others = PresenceReport.othersTotal(try board.report(room: "quiz", node: "b", viewers: 2, ttlMs: 3_000), excluding: "b")
        }
        #expect(others == 0, "the dead node's report expired and was dropped")
        let fields = try board.connection.coordinate(["HKEYS", RedisKeyspace().presenceKey(room: "quiz")], idempotent: true)
        #expect(fields == .array([.string(Array("b".utf8))]), "the expired field removed")
    }

    /// Every room in one round trip: the same sums as one report per room, a 0 drops the node's
    /// field, and more rooms than one script takes are split.
    @Test func presenceForManyRoomsAtOnceSumsAsOneByOne() throws {
        let server = try RedisServerProcess()
        let board = RedisPresenceBoard(connection: RedisConnection(configuration: server.configuration()))
        defer { board.connection.close() }
        _ = try board.reportAll(["quiz": 4, "party": 1], node: "a", ttlMs: 3_000)
        let seenByB = try board.reportAll(["quiz": 2, "party": 0, "solo": 7], node: "b", ttlMs: 3_000)
        #expect(seenByB.mapValues { PresenceReport.othersTotal($0, excluding: "b") }
                == ["quiz": 4, "party": 1, "solo": 0])
        #expect(try board.report(room: "quiz", node: "c", viewers: 1, ttlMs: 3_000).map(\.viewers).reduce(0, +) == 7)
        let afterLeave = try board.reportAll(["quiz": 0], node: "a", ttlMs: 3_000)
        #expect(afterLeave["quiz"]?.map(\.node).sorted() == ["b", "c"])
        let many = Dictionary(uniqueKeysWithValues: (0..<(RedisPresenceBoard.roomsPerBatch + 3)).map { ("r\($0)", $0 % 3) })
        let answered = try board.reportAll(many, node: "a", ttlMs: 3_000)
        #expect(answered.count == many.count)
        #expect(answered.allSatisfy { room, reports in reports.map(\.viewers).reduce(0, +) == many[room] })
    }

    @Test func aRecordKeptByOneNodeIsReadByAnother() throws {
        let server = try RedisServerProcess()
        let a = RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()))
        let b = RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()))
        defer { a.connection.close(); b.connection.close() }
        #expect(try b.body(drawId: "d1") == nil)
        try a.keep(drawId: "d1", room: "quiz", summary: Array("{}".utf8), body: Array(#"{"drawId":"d1"}"#.utf8), token: 0, final: false)
        #expect(try b.body(drawId: "d1") == Array(#"{"drawId":"d1"}"#.utf8))
    }

    /// Two nodes keep draws of one room; either pages the same lines, newest first, by cursor,
    /// and a draw kept again (its end) keeps its place.
    @Test func theHistoryIsPagedAlikeFromEveryNode() throws {
        let server = try RedisServerProcess()
        let a = RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()))
        let b = RedisSharedDrawRecords(connection: RedisConnection(configuration: server.configuration()))
        defer { a.connection.close(); b.connection.close() }
        let line = { (id: String, status: String) in Array(#"{"drawId":"\#(id)","status":"\#(status)"}"#.utf8) }
        #expect(try a.page(room: "quiz", request: DrawPageRequest()) == SharedDrawPage(summaries: [], next: nil, roomHasDraws: false))
        try a.keep(drawId: "d1", room: "quiz", summary: line("d1", "running"), body: [], token: 0, final: false)
        try b.keep(drawId: "d2", room: "quiz", summary: line("d2", "finished"), body: [], token: 1, final: true)
        try a.keep(drawId: "d3", room: "quiz", summary: line("d3", "running"), body: [], token: 0, final: false)
        try b.keep(drawId: "x1", room: "other", summary: line("x1", "finished"), body: [], token: 1, final: true)
        try a.keep(drawId: "d1", room: "quiz", summary: line("d1", "finished"), body: [], token: 1, final: true)   // its end
        let first = try b.page(room: "quiz", request: DrawPageRequest(limit: 2))
        #expect(first.summaries == [line("d3", "running"), line("d2", "finished")])
        #expect(try a.page(room: "quiz", request: DrawPageRequest(limit: 2)) == first)
        let next = try #require(first.next)
        let second = try a.page(room: "quiz", request: DrawPageRequest(limit: 2, after: next))
        #expect(second.summaries == [line("d1", "finished")] && second.next == nil && second.roomHasDraws)
        #expect(second.positions == [1])
        // Past the last draw: empty, but the room has history.
        let past = try a.page(room: "quiz", request: DrawPageRequest(limit: 2, after: DrawCursor(position: 1)))
        #expect(past == SharedDrawPage(summaries: [], next: nil, roomHasDraws: true))
    }
}
