@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    struct StoreConcurrencyTests {
        /// Errors thrown on the writer threads, gathered for the test thread.
        private final class Failures: @unchecked Sendable {
            // @unchecked Sendable: `items` is only touched while `lock` is held.
            private let lock = NSLock()
            private var items: [String] = []
            func add(_ text: String) { lock.withLock { items.append(text) } }
            var all: [String] { lock.withLock { items } }
        }

        /// The draw room `i` runs: its own entrants (names carry `i`) and its own sentAt values.
        private static func record(_ i: Int) -> NewDrawRecord {
            let players = (1...(3 + i % 4)).map {
                StoreFixtures.player(i * 100 + $0, "Room \(i) player \($0)", "r\(i)p\($0)", "2020-01-01", void: $0 == 1)
            }
            return StoreFixtures.started(StoreFixtures.plan(1000 + i, players: players), room: "room-\(i)",
                                         createdAt: Double(i), startedAt: Double(i * 10_000))
        }

        @Test func twentyRoomsWritingAtOnceAreAllRecordedCompletely() throws {
            try StoreFixtures.withStore { store, _ in
                let failures = Failures()
                let group = DispatchGroup()
                for i in 0..<20 {
                    group.enter()
                    let thread = Thread {
                        defer { group.leave() }
                        do {
                            try StoreFixtures.runToEnd(Self.record(i), in: store)
                            // Readers interleave with the other rooms' writers.
                            _ = try store.list(room: "room-\(i)", page: DrawPageRequest())
                        } catch {
                            failures.add("room \(i): \(error)")
                        }
                    }
                    thread.start()
                }
                group.wait()
                #expect(failures.all.isEmpty)

                for i in 0..<20 {
                    let expected = Self.record(i)
                    let page = try store.list(room: "room-\(i)", page: DrawPageRequest())
                    #expect(page.draws.map(\.drawId) == [expected.drawId])
                    let record = try #require(try store.record(id: expected.drawId))
                    #expect(record.room == "room-\(i)")
                    #expect(record.status == .finished)
                    #expect(record.entrants == expected.plan.entrants)
                    #expect(record.rounds.map(\.pickIndex) == expected.plan.rounds.map(\.pickIndex))
                    #expect(record.rounds.map(\.sentAt) == (1...10).map { Double(i * 10_000 + $0) })
                    #expect(record.verify()?.isValid == true)
                }
            }
        }
    }
}
