import CSQLite

extension SQLiteDrawStore {
    /// Where the database is and how long to wait for a lock.
    public struct Configuration: Sendable {
        /// The file name used inside a data directory.
        public static let fileName = "draws.sqlite"
        /// Why 1 s: long enough to ride out a WAL checkpoint or someone reading the file with the
        /// `sqlite3` shell; short enough that a stuck lock aborts a draw within about two rounds
        /// instead of leaving it hanging.
        public static let defaultBusyTimeoutMs = 1000

        /// The database file; `":memory:"` for a private in-memory database (tests).
        public var path: String
        /// How long a call waits for another connection's lock before failing.
        public var busyTimeoutMs: Int
        /// Whether to create the file's directory (and its parents) if missing.
        public var createsDirectory: Bool

        /// Flags for `sqlite3_open_v2`. NOMUTEX: `DrawDatabase`'s own lock already serialises every
        /// call on the one connection, so SQLite's per-call mutex would only add cost.
        /// Internal so tests can open read-only, the only way to see that path while running as root.
        var openFlags: Int32 = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        /// Whether to hold `DataFileLock`. Internal so a test can leave a store open the way a
        /// killed process leaves its WAL behind, after the kernel has dropped its lock.
        var locksFile = true
        /// Internal so tests can stop at an older schema or inject a failing step.
        var migrations: [SchemaMigration] = DrawStoreSchema.migrations
        /// Gives a migrated file's free pages back (`VACUUM`). Internal so a test can make it
        /// fail: a real failure needs a full disk.
        var compaction: @Sendable (SQLiteConnection) throws(SQLiteFailure) -> Void = { db throws(SQLiteFailure) in
            try db.execute("VACUUM")
        }

        /// A database at an explicit path; its directory must exist.
        public init(path: String, busyTimeoutMs: Int = Configuration.defaultBusyTimeoutMs) {
            self.path = path
            self.busyTimeoutMs = busyTimeoutMs
            self.createsDirectory = false
        }

        /// The embedded default: `<dataDirectory>/draws.sqlite`, creating the directory if needed.
        public init(dataDirectory: String, busyTimeoutMs: Int = Configuration.defaultBusyTimeoutMs) {
            let dir = dataDirectory.hasSuffix("/") ? String(dataDirectory.dropLast()) : dataDirectory
            self.path = (dir.isEmpty ? "." : dir) + "/" + Configuration.fileName
            self.busyTimeoutMs = busyTimeoutMs
            self.createsDirectory = true
        }
    }
}
