import CSQLite
import DrawCore
import Foundation

/// The draw store on SQLite: one database file, one connection, every call serialised.
///
/// Opening fails fast, with one `StorageError` line, on a file that is locked, in use by another
/// live-draw (`DataFileLock`), read-only, corrupt or from a newer live-draw; otherwise it brings
/// the schema up to date (`DrawStoreSchema`).
///
/// Durability: WAL with `synchronous=FULL`. FULL syncs the WAL on every commit, so once
/// `insertStarted` returns, the seed behind the published commitment survives power loss, not only
/// a process crash (NORMAL would lose the last commits on power loss). It costs one fsync a
/// commit. One draw makes about a dozen writes; a thousand rooms drawing at once make thousands
/// a second, which is why `inOneTransaction` lets the caller commit all the writes queued at
/// one moment together (group commit), each in its own savepoint.
/// WAL lets the `sqlite3` shell read the file while the server writes.
///
/// Threading: every public method may be called from any thread; they block the caller (disk
/// I/O), so the server calls them from its storage thread, never the service thread.
public final class SQLiteDrawStore: DrawRecordStore, @unchecked Sendable {
    // @unchecked Sendable: `connection` (and every SQLite call through it), `fileLock` and `group`
    // are only touched while `lock` is held (or in init, before the store is shared); `path` is
    // immutable.

    /// The database file, as configured.
    public let path: String
    /// Recursive: the writes made inside `inOneTransaction` take it again on the same thread.
    private let lock = NSRecursiveLock()
    /// Set while `inOneTransaction` runs: the open transaction its writes join. Internal only
    /// for `SQLiteDrawStore+Group.swift`; guarded by `lock` like the rest.
    var group: WriteGroup?
    /// `nil` once closed.
    private var connection: SQLiteConnection?
    /// Held while open, released on `close()`; `nil` for `:memory:` or when not configured.
    private var fileLock: DataFileLock?
    /// Why the `VACUUM` after a migration failed, when it did (`nil` otherwise): the file is
    /// correct but keeps its free pages, which the operator should hear of (the caller logs it;
    /// docs/STORAGE.md says how to compact by hand).
    public let compactionFailure: String?

    /// Opens (or creates) the database and migrates it to the current schema.
    public init(configuration: Configuration) throws(StorageError) {
        path = configuration.path
        if configuration.createsDirectory {
            try Self.createDirectory(of: configuration.path)
        }
        // Before opening: a second server must not even run startup recovery on the file.
        if configuration.locksFile && configuration.path != ":memory:" {
            fileLock = try DataFileLock(databasePath: configuration.path)
        }
        (connection, compactionFailure) = try Self.open(configuration)
    }

    /// Opens (or creates) the database at `path`, whose directory must exist.
    public convenience init(path: String) throws(StorageError) {
        try self.init(configuration: Configuration(path: path))
    }

    /// Closes the connection; later calls throw `StorageError.closed`. Idempotent.
    public func close() {
        lock.lock()
        connection = nil
        fileLock = nil
        lock.unlock()
    }

    /// The schema version of the open file (`DrawStoreSchema.currentVersion` after a successful open).
    public func schemaVersion() throws(StorageError) -> Int {
        try read("read the schema version") { db in try db.scalarInt("PRAGMA user_version") }
    }

    // MARK: Opening

    private static func open(_ configuration: Configuration) throws(StorageError) -> (SQLiteConnection, compactionFailure: String?) {
        let path = configuration.path, timeout = configuration.busyTimeoutMs
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: path, flags: configuration.openFlags, busyTimeoutMs: timeout)
            // Writable or not is only known after opening: SQLite silently falls back to read-only.
            guard !db.isReadOnly else { throw StorageError.readOnly(path: path) }
            // The first statements that read the file: a locked, foreign or damaged file fails here.
            _ = try db.scalarText("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
            // quick_check reads every page once (milliseconds for a draw history), so damage
            // is reported at startup rather than in the middle of a draw.
            let check = try db.scalarText("PRAGMA quick_check(1)") ?? "no answer"
            guard check == "ok" else { throw StorageError.corrupt(path: path, detail: check) }
        } catch let error as StorageError {
            throw error
        } catch let failure as SQLiteFailure {
            throw failure.openError(path: path, busyTimeoutMs: timeout)
        } catch {
            throw .cannotOpen(path: path, reason: "\(error)")
        }
        guard try DrawStoreSchema.migrate(db, busyTimeoutMs: timeout, migrations: configuration.migrations) else {
            return (db, nil)
        }
        return (db, compact(db, with: configuration.compaction))
    }

    /// Gives back to the file system the pages a migration freed (schema 6 moved every draw's
    /// copy of its list out: a 3.7 GB file keeps its size until rebuilt). VACUUM cannot run in
    /// the migration's transaction, so it runs right after it. A failure (VACUUM needs about
    /// the compacted file's size of free disk) does not stop the opening: the migration is
    /// committed and the file correct, only larger than it needs to be, and refusing to start
    /// over free pages would be worse. It is returned, for the operator to hear of; docs/STORAGE.md
    /// tells them how to compact the file by hand.
    private static func compact(_ db: SQLiteConnection,
                                with compaction: (SQLiteConnection) throws(SQLiteFailure) -> Void) -> String? {
        do throws(SQLiteFailure) {
            try compaction(db)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `mkdir -p` for the file's directory. POSIX rather than FileManager because Foundation on
    /// Linux reports "The operation could not be completed", while the operator needs the OS's
    /// reason ("Not a directory", "Permission denied").
    private static func createDirectory(of path: String) throws(StorageError) {
        let directory = (path as NSString).deletingLastPathComponent
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component + "/"
            // EEXIST also when `prefix` is a regular file: the next level (or the open) then fails
            // with ENOTDIR, which names the real problem.
            guard mkdir(prefix, 0o755) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                throw .cannotOpen(path: path, reason: "cannot create the data directory \(directory): \(reason)")
            }
        }
    }

    // MARK: Serialised access

    /// Runs `body` in a write transaction under the lock. Every failure becomes a `StorageError`;
    /// a SQLite failure becomes `writeFailed` naming `operation`, and nothing of `body` is kept.
    func write<T>(_ operation: @autoclosure () -> String,
                  _ body: (SQLiteConnection) throws -> T) throws(StorageError) -> T {
        try withLock(operation, writing: true, body)
    }

    /// Runs `body` in a read transaction under the lock; failures become `readFailed`.
    func read<T>(_ operation: @autoclosure () -> String,
                 _ body: (SQLiteConnection) throws -> T) throws(StorageError) -> T {
        try withLock(operation, writing: false, body)
    }

    private func withLock<T>(_ operation: () -> String, writing: Bool,
                             _ body: (SQLiteConnection) throws -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let db = connection else { throw .closed(path: path) }
        do {
            if group != nil {
                return try inGroup(db, writing: writing, body)
            }
            return try db.transaction(writing: writing) { try body(db) }
        } catch let error as StorageError {
            throw error
        } catch {
            let reason = (error as? SQLiteFailure)?.message ?? "\(error)"
            throw writing ? .writeFailed(path: path, operation: operation(), reason: reason)
                : .readFailed(path: path, operation: operation(), reason: reason)
        }
    }

    /// Test hook:    /// Runs `body` with `lock` held and the connection open (for `SQLiteDrawStore+Group.swift`).
    func locked<T>(_ body: (SQLiteConnection) throws(StorageError) -> T) throws(StorageError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let db = connection else { throw .closed(path: path) }
        return try body(db)
    }

    /// Test hook: runs `body` on the connection under the lock, outside any transaction.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let db = connection else { throw StorageError.closed(path: path) }
        return try body(db)
    }
}
