@testable import DrawData
import DrawCore
import Testing

extension StorageTests {
    struct StorePaginationTests {
        /// 25 draws alternating between two rooms, created one second apart, some still running.
        private static func fill(_ store: SQLiteDrawStore) throws -> [String: [String]] {
            var byRoom: [String: [String]] = [:]
            for n in 1...25 {
                let room = n % 2 == 0 ? "even" : "odd"
                let record = StoreFixtures.started(StoreFixtures.plan(n), room: room, createdAt: Double(n) * 1000,
                                                   startedAt: Double(n) * 1000 + 200)
                if n % 5 == 0 {
                    try store.insertStarted(record)
                } else {
                    try StoreFixtures.runToEnd(record, in: store)
                }
                byRoom[room, default: []].append(record.drawId)
            }
            return byRoom
        }

        @Test func pagesWalkEachRoomNewestFirstWithoutGapsOrRepeats() throws {
            try StoreFixtures.withStore { store, _ in
                let byRoom = try Self.fill(store)
                #expect(byRoom["odd"]?.count == 13 && byRoom["even"]?.count == 12)
                for (room, ids) in byRoom {
                    var seen: [DrawSummary] = []
                    var pageSizes: [Int] = []
                    var cursor: DrawCursor?
                    repeat {
                        let page = try store.list(room: room, page: DrawPageRequest(limit: 10, after: cursor))
                        pageSizes.append(page.draws.count)
                        seen += page.draws
                        cursor = page.next
                    } while cursor != nil
                    #expect(pageSizes == [10, ids.count - 10])
                    #expect(seen.map(\.drawId) == ids.reversed())
                    #expect(seen.allSatisfy { $0.room == room })
                    #expect(seen.map(\.createdAt) == seen.map(\.createdAt).sorted(by: >))
                }
            }
        }

        @Test func summariesCarryStatusAndOnlyFinishedOutcomes() throws {
            try StoreFixtures.withStore { store, _ in
                _ = try Self.fill(store)
                let page = try store.list(room: "odd", page: DrawPageRequest(limit: 100))
                #expect(page.next == nil)
                let running = page.draws.filter { $0.status == .running }
                #expect(running.map(\.drawId) == [StoreFixtures.drawId(25), StoreFixtures.drawId(15), StoreFixtures.drawId(5)])
                #expect(running.allSatisfy { $0.outcome == nil && $0.finishedAt == nil && $0.roundsShown == 0 })
                let finished = page.draws.filter { $0.status == .finished }
                #expect(finished.count == 10)
                #expect(finished.allSatisfy { $0.outcome != nil && $0.roundsShown == 10 && $0.entrantCount == 4 })
            }
        }

        @Test func exactlyFullLastPageHasNoNextCursor() throws {
            try StoreFixtures.withStore { store, _ in
                for n in 1...10 { try store.insertStarted(StoreFixtures.started(StoreFixtures.plan(n))) }
                let first = try store.list(room: "lobby", page: DrawPageRequest(limit: 5))
                let second = try store.list(room: "lobby", page: DrawPageRequest(limit: 5, after: first.next))
                #expect(first.next != nil && second.draws.count == 5 && second.next == nil)
            }
        }

        @Test func drawsAddedWhilePagingDoNotShiftLaterPages() throws {
            try StoreFixtures.withStore { store, _ in
                for n in 1...6 { try store.insertStarted(StoreFixtures.started(StoreFixtures.plan(n))) }
                let first = try store.list(room: "lobby", page: DrawPageRequest(limit: 3))
                try store.insertStarted(StoreFixtures.started(StoreFixtures.plan(7)))
                let second = try store.list(room: "lobby", page: DrawPageRequest(limit: 3, after: first.next))
                #expect(second.draws.map(\.drawId) == [3, 2, 1].map(StoreFixtures.drawId))
            }
        }

        @Test func unknownRoomIsAnEmptyPage() throws {
            try StoreFixtures.withStore { store, _ in
                _ = try Self.fill(store)
                #expect(try store.list(room: "nobody", page: DrawPageRequest()) == DrawPage(draws: [], next: nil))
            }
        }

        @Test(arguments: [("0", nil), ("101", nil), ("abc", nil), ("-1", nil), ("+5", nil), ("", nil),
                          (nil, "xyz"), (nil, "0"), (nil, "-3"), (nil, ""), (nil, "9999999999999999999")] as [(String?, String?)])
        func badParametersAreRejectedBeforeTheStore(limit: String?, cursor: String?) {
            #expect(throws: PageRequestError.self) { try DrawPageRequest.parse(limit: limit, cursor: cursor) }
        }
    }
}
