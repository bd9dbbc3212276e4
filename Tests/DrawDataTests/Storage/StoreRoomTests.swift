@testable import DrawData
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// The `rooms` table behind `RoomStore`, on real database files. Times are injected epoch
    /// milliseconds: expiry is tested by choosing "now", not by waiting.
    struct StoreRoomTests {
        static let day = 86_400_000.0
        static let t0 = 1_732_262_400_000.0
        static let key = "0123456789abcdef0123456789abcdef0123456789abcdef"

        static func room(_ name: String, key: String = key, at: Double = t0) -> RoomRecord {
            RoomRecord(name: name, keyHash: HostKeyHash(of: key), createdAt: at)
        }

        @Test func createdRoomReadsBackAsCreatedAfterReopening() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let created = RoomRecord(name: "quiz-night", keyHash: HostKeyHash(of: Self.key),
                                         createdAt: Self.t0 + 0.25, lastActivityAt: Self.t0 + 5)
                let store = try SQLiteDrawStore(path: path)
                try store.createRoom(created)
                #expect(try store.room(named: "quiz-night") == created)
                store.close()

                let reopened = try SQLiteDrawStore(path: path)
                defer { reopened.close() }
                let loaded = try #require(try reopened.room(named: "quiz-night"))
                #expect(loaded == created)
                #expect(loaded.keyHash.matches(Self.key))
                #expect(!loaded.keyHash.matches(String(Self.key.reversed())))
                #expect(try reopened.room(named: "other") == nil)
                #expect(try reopened.roomCount() == 1)
            }
        }

        @Test func aTakenNameIsRefusedAndTheFirstRoomStays() throws {
            try StoreFixtures.withStore { store, _ in
                try store.createRoom(Self.room("taken"))
                let other = "ffffffffffffffffffffffffffffffffffffffffffffffff"
                let error = storageError { try store.createRoom(Self.room("taken", key: other, at: Self.t0 + 1)) }
                #expect(error == .duplicateRoom(name: "taken"))
                #expect(error?.description.contains("taken") == true)
                let kept = try #require(try store.room(named: "taken"))
                #expect(kept.keyHash.matches(Self.key))
                #expect(kept.createdAt == Self.t0)
                #expect(try store.roomCount() == 1)
            }
        }

        @Test func deletedRoomIsGoneAndItsDrawsStay() throws {
            try StoreFixtures.withStore { store, _ in
                try store.createRoom(Self.room("short-lived"))
                let plan = StoreFixtures.plan(31)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan, room: "short-lived"), in: store)

                #expect(try store.deleteRoom(named: "short-lived"))
                #expect(try store.room(named: "short-lived") == nil)
                #expect(try !store.deleteRoom(named: "short-lived"))
                #expect(try store.roomCount() == 0)
                #expect(try store.list(room: "short-lived", page: DrawPageRequest()).draws.map(\.drawId) == [plan.drawId])
                // The name is free again.
                try store.createRoom(Self.room("short-lived", at: Self.t0 + Self.day))
                #expect(try store.room(named: "short-lived")?.createdAt == Self.t0 + Self.day)
            }
        }

        @Test func rotationReplacesTheKeyAndCountsAsActivity() throws {
            try StoreFixtures.withStore { store, _ in
                try store.createRoom(Self.room("rotating"))
                let newKey = "abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdef"
                #expect(try store.replaceKeyHash(ofRoom: "rotating", with: HostKeyHash(of: newKey), at: Self.t0 + 10))
                let rotated = try #require(try store.room(named: "rotating"))
                #expect(rotated.keyHash.matches(newKey))
                #expect(!rotated.keyHash.matches(Self.key))
                #expect(rotated.lastActivityAt == Self.t0 + 10)
                #expect(rotated.createdAt == Self.t0)
                #expect(try !store.replaceKeyHash(ofRoom: "absent", with: HostKeyHash(of: newKey), at: Self.t0))
            }
        }

        @Test func touchOnlyMovesActivityForward() throws {
            try StoreFixtures.withStore { store, _ in
                try store.createRoom(Self.room("busy"))
                #expect(try store.touchRoom(named: "busy", at: Self.t0 + 100))
                #expect(try store.touchRoom(named: "busy", at: Self.t0 + 50))   // a clock stepped back
                #expect(try store.room(named: "busy")?.lastActivityAt == Self.t0 + 100)
                #expect(try !store.touchRoom(named: "absent", at: Self.t0))
            }
        }

        @Test func expiryRemovesOnlyRoomsIdleBeforeTheCutoffOldestFirst() throws {
            try StoreFixtures.withStore { store, _ in
                // Created on days 0, 1, 2, 3; "day-0" was touched on day 5.
                for d in 0..<4 { try store.createRoom(Self.room("day-\(d)", at: Self.t0 + Double(d) * Self.day)) }
                try store.touchRoom(named: "day-0", at: Self.t0 + 5 * Self.day)
                let plan = StoreFixtures.plan(32)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan, room: "day-1"), in: store)

                // Now is day 92 with 90 days of expiry: the cutoff is day 2, which "day-2" is exactly
                // at (not before), so it stays.
                let cutoff = Self.t0 + 92 * Self.day - 90 * Self.day
                let first = try store.expireRooms(idleBefore: cutoff, limit: 1)
                #expect(first.map(\.name) == ["day-1"])
                #expect(first.first?.keyHash.matches(Self.key) == true)
                #expect(try store.expireRooms(idleBefore: cutoff, limit: 10).isEmpty)
                #expect(try store.expireRooms(idleBefore: cutoff, limit: 0).isEmpty)
                #expect(try store.roomCount() == 3)
                #expect(try store.room(named: "day-1") == nil)
                #expect(try store.list(room: "day-1", page: DrawPageRequest()).draws.count == 1)

                // A later cutoff takes the rest in order of last activity, in batches of `limit`.
                let later = Self.t0 + 6 * Self.day
                #expect(try store.expireRooms(idleBefore: later, limit: 2).map(\.name) == ["day-2", "day-3"])
                #expect(try store.expireRooms(idleBefore: later, limit: 2).map(\.name) == ["day-0"])
                #expect(try store.roomCount() == 0)
            }
        }

        @Test func roomWritesJoinAGroupCommit() throws {
            try StoreFixtures.withStore { store, _ in
                var duplicate: StorageError?
                try store.inOneTransaction { () throws(StorageError) in
                    try store.createRoom(Self.room("grouped-a"))
                    do throws(StorageError) { try store.createRoom(Self.room("grouped-a")) } catch { duplicate = error }
                    try store.createRoom(Self.room("grouped-b"))
                }
                #expect(duplicate == .duplicateRoom(name: "grouped-a"))
                #expect(try store.roomCount() == 2)
            }
        }

        @Test func theFileHoldsTheKeysHashNeverTheKey() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let store = try SQLiteDrawStore(path: path)
                try store.createRoom(Self.room("secretive"))
                let rotatedKey = "5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e"
                try store.createRoom(Self.room("rotated", key: "1111111111111111111111111111111111111111aaaaaaaa"))
                try store.replaceKeyHash(ofRoom: "rotated", with: HostKeyHash(of: rotatedKey), at: Self.t0)
                store.close()   // the last connection checkpoints the WAL into the file

                var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                for sidecar in ["-wal", "-journal"] {
                    if let more = FileManager.default.contents(atPath: path + sidecar) { bytes.append(more) }
                }
                func contains(_ text: String) -> Bool { bytes.range(of: Data(text.utf8)) != nil }
                #expect(contains("secretive"))
                #expect(contains(HostKeyHash(of: Self.key).hex))
                #expect(contains(HostKeyHash(of: rotatedKey).hex))
                for key in [Self.key, rotatedKey] {
                    #expect(!contains(key), "the key itself is in the file")
                    #expect(bytes.range(of: Data(Hex.decode(key)!)) == nil, "the key's bytes are in the file")
                }
            }
        }

        @Test func databaseOfTheLastReleaseGainsRoomsAndKeepsItsDraws() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                // A file as the release before durable rooms left it: schema version 2, draws in it.
                let old = try StoreFixtures.store(at: path, schemaVersion: 2)
                let plan = StoreFixtures.plan(33)
                let running = StoreFixtures.plan(34)
                try old.withConnection { db in
                    try StoreFixtures.insertOldDraw(plan, room: "kept", in: db)
                    try StoreFixtures.insertOldDraw(running, room: "kept", running: true, in: db)
                }
                #expect(try old.schemaVersion() == 2)
                #expect(try old.withConnection { db in
                    try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'rooms'")
                } == 0)
                old.close()

                let current = try SQLiteDrawStore(path: path)
                defer { current.close() }
                #expect(try current.schemaVersion() == DrawStoreSchema.currentVersion)
                #expect(try current.record(id: plan.drawId)?.verify()?.isValid == true)
                #expect(try current.record(id: running.drawId)?.status == .running)
                #expect(try current.list(room: "kept", page: DrawPageRequest()).draws.count == 2)
                #expect(try current.roomCount() == 0)
                try current.createRoom(Self.room("kept"))
                #expect(try current.room(named: "kept") != nil)
            }
        }

        @Test func anEditedHashIsAReadFailureNotARoomWithoutAKey() throws {
            try StoreFixtures.withStore { store, _ in
                try store.createRoom(Self.room("edited"))
                try store.withConnection { db in
                    try db.execute("UPDATE rooms SET host_key_sha256 = printf('%.64c', 'z') WHERE name = 'edited'")
                }
                guard case .readFailed(_, let operation, let reason)? = storageError({ _ = try store.room(named: "edited") }) else {
                    Issue.record("expected readFailed")
                    return
                }
                #expect(operation.contains("edited"))
                #expect(reason.contains("host key hash"))
            }
        }
    }
}
