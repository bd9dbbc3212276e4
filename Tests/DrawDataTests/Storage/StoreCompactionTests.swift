@testable import DrawData
import CSQLite
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// The `VACUUM` after a migration: when it fails, the store still opens (the migrated file is
    /// correct, only larger) and says why, for the server to log; it used to fail silently.
    struct StoreCompactionTests {
        /// A schema-5 file with one draw, whose migration moves a list and so compacts.
        static func oldFile(at path: String) throws {
            let old = try StoreFixtures.store(at: path, schemaVersion: 5)
            try old.withConnection { db in try StoreFixtures.insertOldDraw(StoreFixtures.plan(1), in: db) }
            old.close()
        }

        @Test func aFailedVacuumIsReportedAndTheStoreStillOpens() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                try Self.oldFile(at: path)
                var configuration = SQLiteDrawStore.Configuration(path: path)
                // SQLite's own refusal: VACUUM cannot run while a statement of its connection is
                // still stepping (the real-world cause, a full disk, cannot be made in a test).
                configuration.compaction = { db throws(SQLiteFailure) in
                    let pending = try db.prepare("SELECT 1 UNION ALL SELECT 2")
                    _ = try pending.step()
                    try db.execute("VACUUM")
                }
                let store = try SQLiteDrawStore(configuration: configuration)
                defer { store.close() }
                let why = try #require(store.compactionFailure, "the failure is kept for the server to log")
                #expect(why.contains("VACUUM"), "names SQLite's reason: \(why)")
                #expect(try store.schemaVersion() == DrawStoreSchema.currentVersion, "the migration itself is kept")
                #expect(try store.record(id: StoreFixtures.plan(1).drawId) != nil)
            }
        }

        @Test func aVacuumThatRunsOrIsNotNeededReportsNothing() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                try Self.oldFile(at: path)
                let migrated = try SQLiteDrawStore(path: path)
                #expect(migrated.compactionFailure == nil)
                migrated.close()
                let again = try SQLiteDrawStore(path: path) // nothing to migrate, nothing to compact
                #expect(again.compactionFailure == nil)
                again.close()
            }
        }
    }
}
