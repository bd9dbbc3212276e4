@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Each distinct entrant list stored once (schema 6, issue 31): shared by draws and rooms,
    /// dropped only when nothing holds it, refused when one hash would name two lists.
    struct StoreEntrantListTests {
        static let t0 = StoreRoomTests.t0

        /// `count` players with names of soak-test length (about 100 bytes each, encoded).
        static func crowd(_ count: Int, tag: String = "") -> [Player] {
            (1...count).map {
                StoreFixtures.player($0, "Entrant \(tag)\($0) Somebody-Longname", "user\(tag)\($0)", "2020-01-01", void: false)
            }
        }

        static func lists(in store: SQLiteDrawStore) throws -> Int {
            try store.withConnection { db in try db.scalarInt("SELECT count(*) FROM entrant_lists") }
        }

        static func holds(_ hash: String, in store: SQLiteDrawStore) throws -> Bool {
            try store.withConnection { db in
                try db.scalarInt("SELECT count(*) FROM entrant_lists WHERE sha256 = ?", [.text(hash)]) == 1
            }
        }

        /// The main file's size once the WAL is folded into it.
        static func fileBytes(_ store: SQLiteDrawStore, path: String) throws -> Int {
            try store.withConnection { db in _ = try db.scalarInt("PRAGMA wal_checkpoint(TRUNCATE)") }
            return try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        }

        /// The issue's figure: 10,000 draws of one unchanged 5,000-name list grow the file by less
        /// than 20 MB, i.e. 2 KiB a draw beyond the one copy of the list. Before schema 6 every draw
        /// stored its own copy (about 600 kB for this list). Written through the store's public
        /// writes, a group commit of draws at a time as the server's storage thread makes them,
        /// checked after every group so a regression fails at once, not after 6 GB.
        ///
        /// `make test` runs 200 draws against the same per-draw bound (a debug build plans and
        /// encodes the 5,000 names for every draw: ~70 ms each); the whole 10,000 run with
        /// `LIVE_DRAW_LONG_TESTS=1 swift test -c release --filter tenThousandDraws` (measured:
        /// 10,596,352 bytes, 1,059 a draw).
        static func growthStaysBelowTwoKiBADraw(draws: Int, group: Int) throws {
            let players = Self.crowd(5_000)
            let listBytes = StoredJSON.entrants(players).utf8.count
            try StoreFixtures.withStore { store, dir in
                let path = dir.path("draws.sqlite")
                let before = try Self.fileBytes(store, path: path)
                var grown = 0
                for batch in 0..<(draws / group) {
                    try store.inOneTransaction { () throws(StorageError) in
                        for n in 1...group {
                            let plan = StoreFixtures.plan(batch * group + n, players: players)
                            try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: store)
                        }
                    }
                    grown = try Self.fileBytes(store, path: path) - before
                    let done = (batch + 1) * group, limit = listBytes + done * 2048 + (64 << 10)
                    try #require(grown < limit, "\(done) draws grew the file by \(grown) bytes (limit \(limit))")
                }
                print("\(draws) draws of one 5,000-name list grew the file by \(grown) bytes "
                      + "(\(grown / draws) bytes a draw, the list itself \(listBytes))")
                #expect(try Self.lists(in: store) == 1)
                let last = try #require(try store.record(id: StoreFixtures.drawId(draws)))
                #expect(last.entrants == players)
                #expect(last.verify()?.isValid == true)
            }
        }

        @Test func twoHundredDrawsOfOneUnchangedListAddAboutAKilobyteEach() throws {
            try Self.growthStaysBelowTwoKiBADraw(draws: 200, group: 50)
        }

        @Test(.enabled(if: ProcessInfo.processInfo.environment["LIVE_DRAW_LONG_TESTS"] != nil))
        func tenThousandDrawsOfOneUnchangedListGrowTheFileByLessThan20MB() throws {
            try Self.growthStaysBelowTwoKiBADraw(draws: 10_000, group: 100)
        }

        @Test func drawsAndARoomOfOneListShareOneRow() throws {
            try StoreFixtures.withStore { store, _ in
                let players = Self.crowd(50)
                try store.createRoom(StoreRoomTests.room("own"))
                let upload = RoomEntrants(players: players, warnings: [], sources: EntrantsOrigin.plainText)
                try store.replaceEntrants(ofRoom: "own", with: upload, at: Self.t0)
                let plans = (1...3).map { StoreFixtures.plan($0, players: players) }
                for plan in plans { try StoreFixtures.runToEnd(StoreFixtures.started(plan, room: "own"), in: store) }
                try StoreFixtures.runToEnd(StoreFixtures.started(StoreFixtures.plan(4)), in: store)
                #expect(try Self.lists(in: store) == 2)
                for plan in plans {
                    let record = try #require(try store.record(id: plan.drawId))
                    #expect(EntrantsEncoding.canonicalJSON(record.entrants) == EntrantsEncoding.canonicalJSON(players))
                    #expect(record.verify()?.isValid == true)
                }
                #expect(try store.entrants(ofRoom: "own") == upload)
            }
        }

        /// A list goes when the last room holding it lets go and no draw used it; a list any
        /// draw used stays for good, whatever happens to the rooms.
        @Test func aListNothingHoldsIsDroppedAndOneADrawUsedStays() throws {
            try StoreFixtures.withStore { store, _ in
                let unused = Self.crowd(5, tag: "u"), drawn = Self.crowd(6, tag: "d"), expiring = Self.crowd(7, tag: "e")
                func upload(_ players: [Player]) -> RoomEntrants {
                    RoomEntrants(players: players, warnings: [], sources: EntrantsOrigin.plainText)
                }
                for name in ["swap", "gone", "old", "both"] { try store.createRoom(StoreRoomTests.room(name)) }
                try store.touchRoom(named: "swap", at: Self.t0 + 100)
                try store.touchRoom(named: "both", at: Self.t0 + 100)

                // Replaced before any draw: nothing else holds it.
                try store.replaceEntrants(ofRoom: "swap", with: upload(unused), at: Self.t0 + 100)
                try store.replaceEntrants(ofRoom: "swap", with: upload(drawn), at: Self.t0 + 100)
                #expect(try !Self.holds(EntrantsEncoding.hash(unused), in: store))
                // Held by two rooms: one letting go keeps it for the other.
                try store.replaceEntrants(ofRoom: "both", with: upload(unused), at: Self.t0 + 100)
                try store.replaceEntrants(ofRoom: "gone", with: upload(unused), at: Self.t0 + 100)
                #expect(try store.deleteRoom(named: "gone"))
                #expect(try Self.holds(EntrantsEncoding.hash(unused), in: store))
                try store.replaceSourceURLs(ofRoom: "both", with: StoreFixtures.sources, at: Self.t0 + 100)
                #expect(try !Self.holds(EntrantsEncoding.hash(unused), in: store))

                // Drawn, then the room is deleted: the record still needs it.
                let plan = StoreFixtures.plan(1, players: drawn)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan, room: "swap"), in: store)
                #expect(try store.deleteRoom(named: "swap"))
                #expect(try Self.holds(plan.entrantsHash, in: store))
                #expect(try store.record(id: plan.drawId)?.entrants == drawn)

                // Expiry lets go like a delete (ON DELETE CASCADE fires the trigger too).
                try store.replaceEntrants(ofRoom: "old", with: upload(expiring), at: Self.t0)
                #expect(try store.expireRooms(idleBefore: Self.t0 + 1, limit: 10).map(\.name) == ["old"])
                #expect(try !Self.holds(EntrantsEncoding.hash(expiring), in: store))
                #expect(try Self.lists(in: store) == 1)
            }
        }

        @Test func aHashAlreadyNamingOtherBytesIsRefusedLoudly() throws {
            let plan = StoreFixtures.plan(5)
            try StoreFixtures.withStore { store, _ in
                try store.withConnection { db in
                    try db.run("INSERT INTO entrant_lists (sha256, json) VALUES (?, '[]')", [.text(plan.entrantsHash)])
                }
                let error = storageError { try store.insertStarted(StoreFixtures.started(plan)) }
                guard case .writeFailed(_, _, let reason)? = error else {
                    Issue.record("expected writeFailed, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains(plan.entrantsHash) && reason.contains("refused"))
                #expect(try store.record(id: plan.drawId) == nil)
            }
        }

        @Test func aFailedDrawReferencesNoList() throws {
            let failed = FailedDrawRecord(drawId: StoreFixtures.drawId(9), room: "lobby",
                                          error: .noPlayers(warnings: []), sources: StoreFixtures.sources,
                                          createdAt: 1, failedAt: 2)
            try StoreFixtures.withStore { store, _ in
                try store.insertFailed(failed)
                #expect(try store.record(id: failed.drawId)?.entrants == [])
                #expect(try Self.lists(in: store) == 0)
            }
        }
    }
}
