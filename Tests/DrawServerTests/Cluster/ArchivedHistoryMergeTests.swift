@testable import DrawServer
import DrawCore
import Testing

/// A room's history page from Redis' lines and this node's archive (issue 44): one order, by
/// the cluster's history positions; no line twice; the cursor pages on across both.
struct ArchivedHistoryMergeTests {
    static func line(_ n: Int64, _ from: String = "") -> [UInt8] { Array("{\"n\":\(n)\(from)}".utf8) }

    static func redis(_ positions: [Int64], more: Bool) -> SharedDrawPage {
        SharedDrawPage(summaries: positions.map { line($0, ",\"redis\":1") }, positions: positions,
                       next: more ? positions.last.flatMap { DrawCursor(position: $0) } : nil, roomHasDraws: !positions.isEmpty)
    }

    static func archived(_ positions: [Int64]) -> [(position: Int64, summary: [UInt8])] {
        positions.map { ($0, line($0)) }
    }

    @Test func linesOfBothComeInOneOrderAndRedisWinsADuplicate() {
        let page = ArchivedHistoryMerge.merge(Self.redis([9, 8], more: false), archived: Self.archived([8, 7, 3]), limit: 3)
        #expect(page.positions == [9, 8, 7])
        #expect(page.summaries == [Self.line(9, ",\"redis\":1"), Self.line(8, ",\"redis\":1"), Self.line(7)])
        #expect(page.next == DrawCursor(position: 7))
        #expect(page.roomHasDraws)
    }

    @Test func theLastPageHasNoCursorAndRedisMoreKeepsOne() {
        let last = ArchivedHistoryMerge.merge(Self.redis([], more: false), archived: Self.archived([2, 1]), limit: 3)
        #expect(last.positions == [2, 1])
        #expect(last.next == nil)
        #expect(last.roomHasDraws, "a room whose lines Redis let go still has history")
        let redisHasMore = ArchivedHistoryMerge.merge(Self.redis([9, 8], more: true), archived: Self.archived([1]), limit: 2)
        #expect(redisHasMore.positions == [9, 8])
        #expect(redisHasMore.next == DrawCursor(position: 8))
    }

    @Test func withoutArchivedLinesRedisPageStandsAsItIs() {
        let redis = Self.redis([5, 4], more: true)
        #expect(ArchivedHistoryMerge.merge(redis, archived: [], limit: 2) == redis)
    }
}
