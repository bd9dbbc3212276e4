@testable import DrawData
import CSQLite
import DrawCore
import Foundation
import Testing

extension StorageTests {
    /// Every way the file can be unusable at startup gives one clear line, and never a crash.
    struct StoreOpenFailureTests {
        @Test func garbageFileIsCorrupt() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let garbage = String(repeating: "this is not a database, just text\n", count: 300)
                try Data(garbage.utf8).write(to: URL(fileURLWithPath: path))

                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                guard case .corrupt(path, _)? = error else {
                    Issue.record("expected corrupt, got \(String(describing: error))")
                    return
                }
                expectOneLine(error, naming: path)
            }
        }

        @Test func damagedPageIsFoundAtOpen() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let store = try SQLiteDrawStore(path: path)
                for n in 1...20 { try StoreFixtures.runToEnd(StoreFixtures.started(StoreFixtures.plan(n)), in: store) }
                let pageSize = try store.withConnection { db in try db.scalarInt("PRAGMA page_size") }
                // Closing the last connection checkpoints the WAL into the file, so the damage below
                // hits the only copy of the data.
                store.close()

                // Page 2 is the root of `draws`; the header page stays intact, so the file still looks
                // like SQLite and only a check of the pages can tell.
                let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try file.seek(toOffset: UInt64(pageSize))
                try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
                try file.close()

                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                guard case .corrupt(path, _)? = error else {
                    Issue.record("expected corrupt, got \(String(describing: error))")
                    return
                }
                expectOneLine(error, naming: path)
            }
        }

        @Test func pathUnderARegularFileCannotBeOpened() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let file = dir.path("not-a-directory")
                try Data("x".utf8).write(to: URL(fileURLWithPath: file))
                let path = file + "/draws.sqlite"

                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                guard case .cannotOpen(path, let reason)? = error else {
                    Issue.record("expected cannotOpen, got \(String(describing: error))")
                    return
                }
                #expect(reason.contains("Not a directory"))
                expectOneLine(error, naming: path)

                let inDataDir = storageError {
                    _ = try SQLiteDrawStore(configuration: .init(dataDirectory: file + "/data"))
                }
                guard case .cannotOpen(_, let why)? = inDataDir else {
                    Issue.record("expected cannotOpen, got \(String(describing: inDataDir))")
                    return
                }
                #expect(why.contains("cannot create the data directory") && why.contains("Not a directory"))
                expectOneLine(inDataDir, naming: file + "/data/draws.sqlite")
            }
        }

        @Test func dataDirectoryIsCreated() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let store = try SQLiteDrawStore(configuration: .init(dataDirectory: dir.path("a/b/data/")))
                defer { store.close() }
                #expect(store.path == dir.path("a/b/data/draws.sqlite"))
                #expect(FileManager.default.fileExists(atPath: store.path))
            }
        }

        /// Tests run as root, whom file permissions do not stop, so the read-only case is reached the
        /// way SQLite itself reaches it for an unwritable file: a connection that can only read.
        @Test func readOnlyDatabaseIsRefused() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                try SQLiteDrawStore(path: path).close()
                var readOnly = SQLiteDrawStore.Configuration(path: path)
                readOnly.openFlags = SQLITE_OPEN_READONLY

                let error = storageError { _ = try SQLiteDrawStore(configuration: readOnly) }
                #expect(error == .readOnly(path: path))
                expectOneLine(error, naming: path)
            }
        }

        @Test func databaseLockedByAnotherConnectionGivesUpAfterTheBusyTimeout() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                // Another process (here: another connection) holds an exclusive lock in rollback mode,
                // which keeps even readers out.
                let other = try SQLiteConnection(path: path, flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                                                 busyTimeoutMs: 0)
                try other.execute("BEGIN EXCLUSIVE; CREATE TABLE held (x INTEGER)")

                let error = storageError { _ = try SQLiteDrawStore(configuration: .init(path: path, busyTimeoutMs: 50)) }
                #expect(error == .locked(path: path, waitedMs: 50))
                expectOneLine(error, naming: path)

                try other.execute("ROLLBACK")
                let store = try SQLiteDrawStore(configuration: .init(path: path, busyTimeoutMs: 50))
                #expect(try store.schemaVersion() == DrawStoreSchema.currentVersion)
                store.close()
            }
        }
    }

    /// One server per database: a second store on the same file is refused until the first closes.
    struct StoreFileLockTests {
        @Test func secondStoreOnTheSameFileIsRefused() throws {
            try StoreFixtures.withTemporaryDirectory { dir in
                let path = dir.path("draws.sqlite")
                let first = try SQLiteDrawStore(path: path)
                let error = storageError { _ = try SQLiteDrawStore(path: path) }
                #expect(error == .inUse(path: path))
                expectOneLine(error, naming: path)

                first.close()
                let second = try SQLiteDrawStore(path: path)
                #expect(try second.schemaVersion() == DrawStoreSchema.currentVersion)
                second.close()
            }
        }

        @Test func inMemoryStoresTakeNoLock() throws {
            let a = try SQLiteDrawStore(path: ":memory:"), b = try SQLiteDrawStore(path: ":memory:")
            #expect(try a.schemaVersion() == b.schemaVersion())
        }
    }
}
