@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// A room's own list and settings (schema 4), and draws with several winners, on real files.
    struct StoreRoomEntrantsTests {
        static let t0 = StoreRoomTests.t0

        static func list(_ names: [String], void: Bool = false) -> RoomEntrants {
            let day = CalendarDate(year: 2026, month: 1, day: 2)!
            let players = names.enumerated().map {
                Player(userId: $0.offset + 1, name: $0.element, username: "", regDate: day, isVoid: void)
            }
            return RoomEntrants(players: players, warnings: [.duplicateName(userId: 2, firstUserId: 1)],
                                sources: EntrantsOrigin.plainText)
        }

        @Test func aListIsKeptReadWholeAndSummedUpWithTheRoom() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let store = try SQLiteDrawStore(path: path)
                try store.createRoom(StoreRoomTests.room("own"))
                let list = Self.list(["Ann", "Ann", "Bö 🎲"])
                #expect(try store.replaceEntrants(ofRoom: "own", with: list, at: Self.t0 + 10))
                store.close()

                let reopened = try SQLiteDrawStore(path: path)
                defer { reopened.close() }
                #expect(try reopened.entrants(ofRoom: "own") == list)
                let room = try #require(try reopened.room(named: "own"))
                #expect(room.entrants == list.summary)
                #expect(room.lastActivityAt == Self.t0 + 10)
                // Removed: the operator's lists again.
                #expect(try reopened.replaceEntrants(ofRoom: "own", with: nil, at: Self.t0 + 20))
                #expect(try reopened.entrants(ofRoom: "own") == nil)
                #expect(try reopened.room(named: "own")?.entrants == nil)
            }
        }

        @Test func aNewListReplacesTheOldOneWhole() throws {
            try StoreFixtures.withStore { store, _ throws in
                try store.createRoom(StoreRoomTests.room("swap"))
                try store.replaceEntrants(ofRoom: "swap", with: Self.list(["A", "B", "C"]), at: Self.t0)
                try store.replaceEntrants(ofRoom: "swap", with: Self.list(["D"], void: true), at: Self.t0)
                #expect(try store.entrants(ofRoom: "swap")?.players.map(\.name) == ["D"])
                #expect(try store.room(named: "swap")?.entrants?.allVoid == true)
            }
        }

        @Test func noRoomNoList() throws {
            try StoreFixtures.withStore { store, _ throws in
                #expect(try !store.replaceEntrants(ofRoom: "ghost", with: Self.list(["A"]), at: Self.t0))
                #expect(try !store.replaceSettings(ofRoom: "ghost", with: RoomSettings(winners: 2), at: Self.t0))
                #expect(try store.entrants(ofRoom: "ghost") == nil)
            }
        }

        @Test func aDeletedOrExpiredRoomTakesItsListAlong() throws {
            try StoreFixtures.withStore { store, _ throws in
                try store.createRoom(StoreRoomTests.room("gone"))
                try store.createRoom(StoreRoomTests.room("old"))
                try store.replaceEntrants(ofRoom: "gone", with: Self.list(["A"]), at: Self.t0)
                try store.replaceEntrants(ofRoom: "old", with: Self.list(["B"]), at: Self.t0)
                #expect(try store.deleteRoom(named: "gone"))
                #expect(try store.expireRooms(idleBefore: Self.t0 + 1, limit: 10).map(\.name) == ["old"])
                // A new room of the same name starts without a list.
                try store.createRoom(StoreRoomTests.room("gone"))
                #expect(try store.entrants(ofRoom: "gone") == nil)
                #expect(try store.withConnection { db in try db.scalarInt("SELECT count(*) FROM room_entrants") } == 0)
            }
        }

        @Test func settingsAreKeptAndReadBack() throws {
            try StoreFixtures.withStore { store, _ throws in
                try store.createRoom(StoreRoomTests.room("set"))
                let settings = RoomSettings(rounds: 4, intervalMs: 80, decelerateToMs: 300, winners: 3, countdownMs: 0,
                                            title: "Spring Giveaway", prize: "Zoë’s book 📚")
                #expect(try store.replaceSettings(ofRoom: "set", with: settings, at: Self.t0 + 5))
                #expect(try store.room(named: "set")?.settings == settings)
                #expect(try store.replaceSettings(ofRoom: "set", with: RoomSettings(), at: Self.t0 + 6))
                #expect(try store.room(named: "set")?.settings == RoomSettings())
            }
        }

        @Test func aDrawWithThreeWinnersKeepsItsSlotsAndVerifies() throws {
            try StoreFixtures.withStore { store, _ throws in
                let base = StoreFixtures.plan(41)
                let plan = DrawPlan.make(drawId: base.drawId, entrants: base.entrants, seed: base.seed,
                                         schedule: base.schedule, winners: 3)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: store)
                let record = try #require(try store.record(id: plan.drawId))
                #expect(record.winners == 3)
                #expect(record.winnerPicks == plan.winnerPicks)
                #expect(record.verify()?.isValid == true)
            }
        }

        @Test func aVersion3FileKeepsItsRoomsAndDrawsWhichReadAsOneWinner() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let old = try StoreFixtures.store(at: path, schemaVersion: 3)
                try old.withConnection { db in
                    try db.execute("""
                        INSERT INTO rooms (name, host_key_sha256, created_at, last_activity_at, settings_json)
                        VALUES ('kept', '\(HostKeyHash(of: StoreRoomTests.key).hex)', 1, 2, '{}')
                        """)
                }
                let plan = StoreFixtures.plan(42)
                try old.withConnection { db in try StoreFixtures.insertOldDraw(plan, room: "kept", in: db) }
                old.close()

                let current = try SQLiteDrawStore(path: path)
                defer { current.close() }
                #expect(try current.schemaVersion() == DrawStoreSchema.currentVersion)
                let room = try #require(try current.room(named: "kept"))
                #expect(room.entrants == nil && room.settings == RoomSettings())
                let record = try #require(try current.record(id: plan.drawId))
                #expect(record.winners == 1 && record.winnerPicks.count == 1)
                #expect(record.verify()?.isValid == true)
            }
        }
    }
}
