import DrawCore
import DrawPresentation
@testable import DrawServer
import Logging
import Testing

/// What the history endpoints answer before any store is read (`HistoryReads`), without a socket.
@Suite struct HistoryReadsTests {
    static func reads(lists: EntrantLists = EntrantLists()) -> HistoryReads {
        HistoryReads(store: nil, rooms: nil, shared: nil, entrantLists: lists, logger: Logger(label: "test"))
    }

    static func status(_ answer: HistoryAnswer) -> Int? {
        if case .now(let response) = answer { return response.status }
        return nil
    }

    @Test func requestsThatNeedNoReadAreAnsweredAtOnce() {
        let reads = Self.reads()
        #expect(Self.status(reads.historyPage(room: "Not A Room!", query: [:], live: false)) == 404)
        #expect(Self.status(reads.drawRecord(id: "x")) == 404, "a malformed id is not looked up")
        // A valid request without a store: this server keeps no history.
        #expect(Self.status(reads.historyPage(room: "quiz", query: [:], live: true)) == 404)
        #expect(Self.status(reads.drawEntrants(id: "0123456789abcdef0123456789abcdef", ifNoneMatch: nil)) == 404)
    }

    @Test func aRecentDrawsEntrantsComeFromMemoryWithTheirETag() throws {
        let lists = EntrantLists()
        let list = lists.list(drawId: "0123456789abcdef0123456789abcdef", hash: String(repeating: "ab", count: 32),
                              players: RunningServer.players)
        let reads = Self.reads(lists: lists)
        guard case .now(let full) = reads.drawEntrants(id: "0123456789abcdef0123456789abcdef", ifNoneMatch: nil) else {
            Issue.record("a recent list was read from the store")
            return
        }
        #expect(full.status == 200 && full.body == list.json)
        guard case .now(let same) = reads.drawEntrants(id: "0123456789abcdef0123456789abcdef", ifNoneMatch: list.etag) else { return }
        #expect(same.status == 304 && same.body.isEmpty, "the client has it: 304")
    }
}
