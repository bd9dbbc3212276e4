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
        _ = try board.report(room: "quiz", node: "a", viewers: 4, nowMs: 1_000, ttlMs: 3_000)
        let seenByB = try board.report(room: "quiz", node: "b", viewers: 2, nowMs: 1_500, ttlMs: 3_000)
        #expect(PresenceReport.othersTotal(seenByB, excluding: "b", nowMs: 1_500) == 4)
        // A reported 0: its field is gone. A dead node's report counts until it expires.
        let afterLeave = try board.report(room: "quiz", node: "a", viewers: 0, nowMs: 2_000, ttlMs: 3_000)
        #expect(afterLeave.map(\.node) == ["b"])
        #expect(PresenceReport.othersTotal(afterLeave, excluding: "a", nowMs: 2_000) == 2)
        #expect(PresenceReport.othersTotal(afterLeave, excluding: "a", nowMs: 4_500) == 0)
    }

    /// Every room in one round trip: the same sums as one report per room, a 0 drops the node's
    /// field, and more rooms than one script takes are split.
    @Test func presenceForManyRoomsAtOnceSumsAsOneByOne() throws {
        let server = try RedisServerProcess()
        let board = RedisPresenceBoard(connection: RedisConnection(configuration: server.configuration()))
        defer { board.connection.close() }
        _ = try board.reportAll(["quiz": 4, "party": 1], node: "a", nowMs: 1_000, ttlMs: 3_000)
        let seenByB = try board.reportAll(["quiz": 2, "party": 0, "solo": 7], node: "b", nowMs: 1_500, ttlMs: 3_000)
        #expect(seenByB.mapValues { PresenceReport.othersTotal($0, excluding: "b", nowMs: 1_500) }
                == ["quiz": 4, "party": 1, "solo": 0])
        #expect(try board.report(room: "quiz", node: "c", viewers: 1, nowMs: 1_600, ttlMs: 3_000).map(\.viewers).reduce(0, +) == 7)
        let afterLeave = try board.reportAll(["quiz": 0], node: "a", nowMs: 2_000, ttlMs: 3_000)
        #expect(afterLeave["quiz"]?.map(\.node).sorted() == ["b", "c"])
        let many = Dictionary(uniqueKeysWithValues: (0..<(RedisPresenceBoard.roomsPerBatch + 3)).map { ("r\($0)", $0 % 3) })
        let answered = try board.reportAll(many, node: "a", nowMs: 3_000, ttlMs: 3_000)
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
        #expect(second == SharedDrawPage(summaries: [line("d1", "finished")], next: nil, roomHasDraws: true))
        // Past the last draw: empty, but the room has history.
        let past = try a.page(room: "quiz", request: DrawPageRequest(limit: 2, after: DrawCursor(position: 1)))
        #expect(past == SharedDrawPage(summaries: [], next: nil, roomHasDraws: true))
    }
}
