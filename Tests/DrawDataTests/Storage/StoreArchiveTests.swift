@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Cluster mode's archive of ended draws (schema 12, issue 44): each draw's line and record as
    /// Redis kept them, each list once, the stream's cursor with them; read back whole, paged by
    /// position, and kept for good (a room's list released does not take an archived draw's).
    struct StoreArchiveTests {
        static func draw(_ n: Int, room: String, list: SharedEntrantList?) -> ArchivedDraw {
            let id = StoreFixtures.drawId(n)
            let head = Array(#"{"drawId":"\#(id)","status":"finished","entrants":"#.utf8)
            return ArchivedDraw(drawId: id, room: room, position: Int64(n * 10),
                                summary: Array(#"{"drawId":"\#(id)","status":"finished"}"#.utf8),
                                body: list.map { SharedRecordBody(head: head, tail: Array(#","winner":"Bö 🎲"}"#.utf8), entrants: $0) }
                                    ?? SharedRecordBody(whole: Array(#"{"drawId":"\#(id)","status":"failed"}"#.utf8)))
        }

        static func list(_ names: [String]) -> SharedEntrantList {
            let players = StoreRoomEntrantsTests.list(names).players
            return SharedEntrantList(hash: EntrantsEncoding.hash(players), json: EntrantsEncoding.canonicalJSON(players))
        }

        @Test func archivedDrawsReadBackWholeAndPageByPosition() throws {
            try StoreFixtures.withStore { store, _ in
                #expect(try store.archiveCursor() == nil)
                let list = Self.list(["Ann", "Bö 🎲", "Cy"])
                let draws = [Self.draw(1, room: "quiz", list: list), Self.draw(2, room: "fair", list: list),
                             Self.draw(3, room: "quiz", list: nil), Self.draw(4, room: "quiz", list: list)]
                try store.archive(Array(draws.prefix(2)), cursor: "5-0 1")
                try store.archive(Array(draws.suffix(2)), cursor: "9-3 4")
                #expect(try store.archiveCursor() == "9-3 4")
                for draw in draws { #expect(try store.archivedBody(drawId: draw.drawId) == draw.body.whole) }
                #expect(try store.archivedEntrants(drawId: draws[0].drawId) == list)
                #expect(try store.archivedEntrants(drawId: draws[2].drawId) == nil, "a draw kept whole has no list")
                #expect(try store.archivedBody(drawId: StoreFixtures.drawId(99)) == nil)
                let quiz = try store.archivedLines(room: "quiz", before: nil, limit: 2)
                #expect(quiz.map(\.position) == [40, 30])
                #expect(quiz.map(\.summary) == [draws[3].summary, draws[2].summary])
                #expect(try store.archivedLines(room: "quiz", before: 30, limit: 5).map(\.position) == [10])
                // One copy of the list for the three draws of it.
                let lists = try store.withConnection { db in try db.scalarInt("SELECT count(*) FROM entrant_lists") }
                #expect(lists == 1)
            }
        }

        @Test func aDrawArchivedAgainStaysAsFirstKept() throws {
            try StoreFixtures.withStore { store, _ in
                let first = Self.draw(1, room: "quiz", list: nil)
                try store.archive([first], cursor: "1-0 1")
                let other = ArchivedDraw(drawId: first.drawId, room: "quiz", position: 99, summary: Array("{}".utf8),
                                         body: SharedRecordBody(whole: Array("{}".utf8)))
                try store.archive([other], cursor: "2-0 2")
                #expect(try store.archivedBody(drawId: first.drawId) == first.body.whole)
                #expect(try store.archivedLines(room: "quiz", before: nil, limit: 5).map(\.position) == [10])
                #expect(try store.archiveCursor() == "2-0 2")
            }
        }

        /// A room's own list released (replaced) deletes the list unless something references
        /// it: since schema 12, an archived draw does.
        @Test func aRoomsListReleasedKeepsTheListAnArchivedDrawReferences() throws {
            try StoreFixtures.withStore { store, _ in
                let names = ["Ann", "Bö 🎲", "Cy"]
                try store.createRoom(StoreRoomTests.room("quiz"))
                try store.replaceEntrants(ofRoom: "quiz", with: StoreRoomEntrantsTests.list(names), at: StoreRoomEntrantsTests.t0)
                let list = Self.list(names)
                let draw = Self.draw(1, room: "quiz", list: list)
                try store.archive([draw], cursor: "1-0 1")
                try store.replaceEntrants(ofRoom: "quiz", with: nil, at: StoreRoomEntrantsTests.t0 + 1)
                #expect(try store.archivedEntrants(drawId: draw.drawId) == list)
                #expect(try store.archivedBody(drawId: draw.drawId) == draw.body.whole)
            }
        }

        /// What a node writes back after Redis lost its history: only draws within the window.
        @Test func theNewestDrawsSinceATimeLeaveOlderOnesOut() throws {
            try StoreFixtures.withStore { store, _ in
                for n in 1...3 {
                    try store.insertStarted(StoreFixtures.started(StoreFixtures.plan(n), createdAt: Double(n) * 1_000,
                                                                   startedAt: Double(n) * 1_000 + 1))
                }
                #expect(try store.newestDraws(limit: 10, since: 2_000).map(\.drawId) == [3, 2].map(StoreFixtures.drawId))
                #expect(try store.newestDraws(limit: 10, since: 9_000).isEmpty)
            }
        }
    }
}
