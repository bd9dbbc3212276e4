import DrawCore
import Foundation

/// The draw database: one SQLite file, one connection, every call serialised.
///
/// It owns what every table of the file shares: the connection, the lock that serialises it, the
/// data directory's `DataFileLock`, the transactions (one per call, or one for a whole group:
/// `DrawDatabase+Group`) and the schema, brought up to date at open (`DrawDatabase+Opening`).
/// The tables' own SQL lives in the stores over it (`DrawRecordWriter`, `DrawRecordReader`,
/// `RoomTable`, `HistoryOutboxTable`, `ScheduledDrawTable`, `EntrantListTable`), which
/// `SQLiteDrawStore` composes into the ports Core asks for. Because they all go through the same
/// connection and lock, a write of any table made inside `inOneTransaction` joins its group.
///
/// Durability: WAL with `synchronous=FULL`. FULL syncs the WAL on every commit, so once
/// `insertStarted` returns, the seed behind the published commitment survives power loss, not only
/// a process crash (NORMAL would lose the last commits on power loss). It costs one fsync a
/// commit. One draw makes about a dozen writes; a thousand rooms drawing at once make thousands
/// a second, which is why `inOneTransaction` lets the caller commit all the writes queued at
/// one moment together (group commit), each in its own savepoint.
/// WAL lets the `sqlite3` shell read the file while the server writes.
///
/// Threading: every method may be called from any thread; they block the caller (disk I/O).
final class DrawDatabase: @unchecked Sendable {
    // @unchecked Sendable: `connection` (and every SQLite call through it), `fileLock` and `group`
    // are only touched while `lock` is held (or in init, before the database is shared); `path`
    // and `compactionFailure` are immutable.

    /// The database file, as configured.
    let path: String
    /// Recursive: the writes made inside `inOneTransaction` take it again on the same thread.
    private let lock = NSRecursiveLock()
    /// Set while `inOneTransaction` runs: the open transaction its writes join. Internal only
    /// for `DrawDatabase+Group.swift`; guarded by `lock` like the rest.
    var group: WriteGroup?
    /// `nil` once closed.
    private var connection: SQLiteConnection?
    /// Held while open, released on `close()`; `nil` for `:memory:` or when not configured.
    private var fileLock: DataFileLock?
    /// Why the `VACUUM` after a migration failed, when it did (`nil` otherwise).
    let compactionFailure: String?

    /// Opens (or creates) the database and migrates it to the current schema.
    init(configuration: SQLiteDrawStore.Configuration) throws(StorageError) {
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

    /// Closes the connection; later calls throw `StorageError.closed`. Idempotent.
    func close() {
        lock.lock()
        connection = nil
        fileLock = nil
        lock.unlock()
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

    /// Runs `body` with `lock` held and the connection open (for `DrawDatabase+Group.swift`).
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
