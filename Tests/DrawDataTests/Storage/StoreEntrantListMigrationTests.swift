@testable import DrawData
import CSQLite
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Schema 5 → 6: every draw's and room's own copy of its list moves into `entrant_lists`,
    /// once per distinct list, and every record reads back exactly as before.
    ///
    /// The old rows are written here with the INSERTs schema 5's code made (the DDL is the
    /// released steps 1–5, which are append-only and never edited), so the test does not depend
    /// on the new code's writes.
    struct StoreEntrantListMigrationTests {
        static func insertOldFailedDraw(_ drawId: String, in db: SQLiteConnection) throws {
            try db.run("""
                INSERT INTO draws (draw_id, room, status, created_at, finished_at, users_url, lottery_url,
                                   entrants_json, entrant_count, warnings_json, failure_code, failure_message)
                VALUES (?, 'old', 'failed', 1, 2, 'u', 'l', '[]', 0, '[]', 'no_players', 'none')
                """, [.text(drawId)])
        }

        /// The bytes the draw's list is stored as now.
        static func storedList(of drawId: String, in store: SQLiteDrawStore) throws -> String? {
            try store.withConnection { db in
                try db.scalarText("""
                    SELECT l.json FROM draws d JOIN entrant_lists l ON l.sha256 = d.entrants_hash WHERE d.draw_id = ?
                    """, [.text(drawId)])
            }
        }

        @Test func everyListMovesOnceAndEveryRecordReadsBackByteForByte() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let crowd = StoreEntrantListTests.crowd(300)
                let same = (1...20).map { StoreFixtures.plan($0, players: crowd) }
                let other = StoreFixtures.plan(30)
                // Valid JSON, not the canonical form (no release wrote one): kept as the canonical
                // bytes its hash commits to, so a later draw of the same list shares the row.
                let spaced = StoreFixtures.plan(31, players: [StoreFixtures.player(1, "A", "a", "2020-01-01", void: false)])
                let spacedJSON = #"[ {"userId": 1, "name": "A", "username": "a", "regDate": "2020-01-01", "void": false} ]"#
                let failedId = StoreFixtures.drawId(32)

                let old = try StoreFixtures.store(at: path, schemaVersion: 5)
                try old.withConnection { db in
                    for plan in same { try StoreFixtures.insertOldDraw(plan, in: db) }
                    try StoreFixtures.insertOldDraw(other, in: db)
                    try StoreFixtures.insertOldDraw(spaced, json: spacedJSON, in: db)
                    try Self.insertOldFailedDraw(failedId, in: db)
                    // A room holding the crowd's list, stored with white space (rooms' lists were
                    // never hashed): re-encoded, it shares the draws' row.
                    try db.run("""
                        INSERT INTO rooms (name, host_key_sha256, created_at, last_activity_at)
                        VALUES ('own', ?, 1, 1)
                        """, [.text(String(repeating: "ab", count: 32))])
                    let roomJSON = StoredJSON.entrants(crowd).replacingOccurrences(of: ",", with: ", ")
                    try db.run("""
                        INSERT INTO room_entrants (room, entrants_json, warnings_json, users_source, lottery_source, summary_json)
                        VALUES ('own', ?, '[]', 'upload:text/plain', 'upload:text/plain', ?)
                        """, [.text(roomJSON), .text(#"{"allVoid":false,"count":300,"warnings":[]}"#)])
                }
                let before = try StoreEntrantListTests.fileBytes(old, path: path)
                old.close()

                // Exactly step 6, as the release that brought it: later steps have tests of their own.
                let store = try StoreFixtures.store(at: path, schemaVersion: 6)
                defer { store.close() }
                #expect(try store.schemaVersion() == 6)
                for plan in same + [other] {
                    let record = try #require(try store.record(id: plan.drawId))
                    #expect(try Self.storedList(of: plan.drawId, in: store) == StoredJSON.entrants(plan.entrants))
                    #expect(EntrantsEncoding.canonicalJSON(record.entrants) == EntrantsEncoding.canonicalJSON(plan.entrants))
                    #expect(record.verify()?.isValid == true)
                    #expect(record.roundsShown == plan.rounds.count)
                }
                #expect(try Self.storedList(of: spaced.drawId, in: store) == StoredJSON.entrants(spaced.entrants))
                #expect(try store.record(id: spaced.drawId)?.entrants == spaced.entrants)
                let again = StoreFixtures.plan(33, players: spaced.entrants)
                try StoreFixtures.runToEnd(StoreFixtures.started(again), in: store)
                #expect(try store.record(id: again.drawId)?.verify()?.isValid == true, "the same list drawn again is kept")
                let failed = try #require(try store.record(id: failedId))
                #expect(failed.entrants.isEmpty && failed.failure?.code == "no_players")
                #expect(try store.entrants(ofRoom: "own")?.players == crowd)

                // Three distinct lists; the old columns are gone and the file gave their pages back.
                #expect(try StoreEntrantListTests.lists(in: store) == 3)
                let oldColumns = try store.withConnection { db in
                    try db.scalarInt("""
                        SELECT (SELECT count(*) FROM pragma_table_info('draws') WHERE name = 'entrants_json')
                             + (SELECT count(*) FROM pragma_table_info('room_entrants') WHERE name = 'entrants_json')
                        """)
                }
                #expect(oldColumns == 0)
                let after = try StoreEntrantListTests.fileBytes(store, path: path)
                #expect(after * 4 < before, "VACUUM: \(before) → \(after) bytes")

                // The migrated file works like a new one: a draw of a moved list adds no list.
                try StoreFixtures.runToEnd(StoreFixtures.started(StoreFixtures.plan(40, players: crowd)), in: store)
                #expect(try StoreEntrantListTests.lists(in: store) == 3)
                // The trigger came with it: the room letting go keeps the list the draws use.
                #expect(try store.deleteRoom(named: "own"))
                #expect(try StoreEntrantListTests.holds(EntrantsEncoding.hash(crowd), in: store))
            }
        }

        /// Two records under one hash with different bytes: merging would make one read the
        /// other's list, so the migration stops and the file stays at version 5, untouched.
        @Test func twoListsUnderOneHashStopTheMigration() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let first = StoreFixtures.plan(1), second = StoreFixtures.plan(2)
                let old = try StoreFixtures.store(at: path, schemaVersion: 5)
                try old.withConnection { db in
                    try StoreFixtures.insertOldDraw(first, in: db)
                    try StoreFixtures.insertOldDraw(second, json: "[]", in: db)
                }
                old.close()

                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                guard case .migrationFailed(path, 6, let reason)? = error else {
                    Issue.record("expected migrationFailed to 6, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains(second.drawId) && reason.contains("refused"))
                let reopened = try StoreFixtures.store(at: path, schemaVersion: 5)
                defer { reopened.close() }
                #expect(try reopened.schemaVersion() == 5)
                let kept = try reopened.withConnection { db in
                    try db.scalarText("SELECT entrants_json FROM draws WHERE draw_id = ?", [.text(first.drawId)])
                }
                #expect(kept == StoredJSON.entrants(first.entrants))
            }
        }
    }
}
