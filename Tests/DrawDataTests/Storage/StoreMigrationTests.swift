@testable import DrawData
import CSQLite
import DrawCore
import Foundation
import Testing

extension StorageTests {
    struct StoreMigrationTests {
        @Test func stepsAreNumberedOneByOne() {
            #expect(DrawStoreSchema.migrations.map(\.version) == Array(1...DrawStoreSchema.currentVersion))
        }

        @Test func freshDatabaseGetsTheCurrentVersion() throws {
            try StoreFixtures.withStore { store, _ in
                #expect(try store.schemaVersion() == DrawStoreSchema.currentVersion)
                let tables = try store.withConnection { db in
                    try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name IN ('draws', 'rounds', 'draws_by_room')")
                }
                #expect(tables == 3)
                let mode = try store.withConnection { db in try db.scalarText("PRAGMA journal_mode") }
                #expect(mode == "wal")
            }
        }

        @Test func reopeningIsIdempotent() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let plan = StoreFixtures.plan(3)
                let first = try SQLiteDrawStore(path: path)
                try StoreFixtures.runToEnd(StoreFixtures.started(plan), in: first)
                let original = try first.record(id: plan.drawId)
                first.close()
                for _ in 0..<3 {
                    let again = try SQLiteDrawStore(path: path)
                    #expect(try again.schemaVersion() == DrawStoreSchema.currentVersion)
                    #expect(try again.record(id: plan.drawId) == original)
                    again.close()
                }
            }
        }

        @Test func olderDatabaseWithDataIsMigratedAndKeepsIt() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                // A file as the first release left it: schema version 1, a draw in it.
                let old = try StoreFixtures.store(at: path, schemaVersion: 1)
                #expect(try old.schemaVersion() == 1)
                let plan = StoreFixtures.plan(4)
                try old.withConnection { db in try StoreFixtures.insertOldDraw(plan, room: "old-room", in: db) }
                old.close()

                let current = try SQLiteDrawStore(path: path)
                defer { current.close() }
                #expect(try current.schemaVersion() == DrawStoreSchema.currentVersion)
                #expect(try current.record(id: plan.drawId)?.verify()?.isValid == true)
                #expect(try current.list(room: "old-room", page: DrawPageRequest()).draws.map(\.drawId) == [plan.drawId])
                let index = try current.withConnection { db in
                    try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'draws_by_room'")
                }
                #expect(index == 1)
            }
        }

        @Test func failingStepLeavesTheFileAtItsOldVersion() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let plan = StoreFixtures.plan(6)
                let store = try SQLiteDrawStore(path: path)
                try store.insertStarted(StoreFixtures.started(plan))
                store.close()

                var broken = SQLiteDrawStore.Configuration(path: path)
                let next = DrawStoreSchema.currentVersion + 1
                // Two new steps, the second of which fails: neither may stick.
                broken.migrations = DrawStoreSchema.migrations + [
                    SchemaMigration(version: next, sql: "CREATE TABLE extra (x INTEGER)"),
                    SchemaMigration(version: next + 1, sql: "CREATE TABLE draws (x INTEGER)"),
                ]
                let error = storageError { _ = try SQLiteDrawStore(configuration: broken) }
                guard case .migrationFailed(path, next + 1, let reason)? = error else {
                    Issue.record("expected migrationFailed, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("already exists"))
                expectOneLine(error, naming: path)

                let reopened = try SQLiteDrawStore(path: path)
                defer { reopened.close() }
                #expect(try reopened.schemaVersion() == DrawStoreSchema.currentVersion)
                #expect(try reopened.withConnection { db in
                    try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'extra'")
                } == 0)
                #expect(try reopened.record(id: plan.drawId)?.status == .running)
            }
        }

        @Test func newerSchemaIsRefusedWithAClearError() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let newer = DrawStoreSchema.currentVersion + 1
                try SQLiteDrawStore(path: path).withConnection { db in try db.execute("PRAGMA user_version = \(newer)") }

                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                #expect(error == .newerSchema(path: path, found: newer, supported: DrawStoreSchema.currentVersion))
                expectOneLine(error, naming: path)
                #expect(error?.description.contains("newer") == true)
            }
        }
    }
}
