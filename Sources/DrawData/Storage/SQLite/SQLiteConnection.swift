import CSQLite

/// Owns one SQLite connection: `sqlite3_open_v2` in `init`, `sqlite3_close_v2` in `deinit`,
/// and nowhere else.
///
/// Not `Sendable` and not locked: a connection's error message belongs to its last call, and a
/// transaction spans several calls, so callers must serialise whole operations anyway.
/// `DrawDatabase` does, with its lock.
final class SQLiteConnection {
    let path: String
    private let handle: OpaquePointer

    /// Opens (creating if needed) the database at `path`; `":memory:"` is a private in-memory one.
    /// - Parameters:
    ///   - flags: `SQLITE_OPEN_*` flags; `SQLITE_OPEN_EXRESCODE` is added so every failure carries
    ///     its extended code.
    ///   - busyTimeoutMs: how long a call waits for another connection's lock before `SQLITE_BUSY`.
    init(path: String, flags: Int32, busyTimeoutMs: Int) throws(SQLiteFailure) {
        var raw: OpaquePointer?
        let rc = sqlite3_open_v2(path, &raw, flags | SQLITE_OPEN_EXRESCODE, nil)
        guard rc == SQLITE_OK, let raw else {
            let failure = SQLiteFailure(code: rc, handle: raw)
            // A failed open still allocates a handle (to carry the message); it must be closed.
            sqlite3_close_v2(raw)
            throw failure
        }
        self.path = path
        self.handle = raw
        sqlite3_busy_timeout(raw, Int32(clamping: busyTimeoutMs))
    }

    deinit {
        // _v2: if a statement were somehow still alive, SQLite closes once it is finalised
        // instead of failing with SQLITE_BUSY and leaking the handle.
        sqlite3_close_v2(handle)
    }

    /// The failure of the last call, which returned `code`.
    func failure(_ code: Int32) -> SQLiteFailure {
        SQLiteFailure(code: code, handle: handle)
    }

    /// Runs one or more statements that take no parameters and return no rows we need (DDL,
    /// PRAGMA assignments, BEGIN/COMMIT).
    func execute(_ sql: String) throws(SQLiteFailure) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var raw: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
        guard rc == SQLITE_OK, let raw else { throw failure(rc) }
        return SQLiteStatement(connection: self, handle: raw)
    }

    /// Prepares, binds and runs a statement that returns no rows.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteFailure) {
        let statement = try prepare(sql)
        try statement.bind(values)
        try statement.run()
    }

    /// The first column of the first row of a query, as text (`nil` for no row or NULL).
    func scalarText(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteFailure) -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.text(0) : nil
    }

    /// The first column of the first row of a query, as an integer (0 for no row).
    func scalarInt(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteFailure) -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.int(0) : 0
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rowid of the last successful INSERT.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether no transaction is open. Inside one, true means SQLite rolled it back by itself
    /// (it does on some I/O errors, such as a full disk).
    var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

    /// Whether the main database was opened read-only (SQLite falls back to read-only, without an
    /// error, when the file cannot be opened for writing).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    ///
    /// A write transaction starts with `BEGIN IMMEDIATE`, which takes the write lock up front, so
    /// waiting for another writer happens here, under the busy timeout, and never as a failed
    /// lock upgrade halfway through `body`. A read transaction (`BEGIN`) only gives `body` one
    /// consistent snapshot across its several queries.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // Best effort: if COMMIT itself failed the transaction may still be open. A failing
            // ROLLBACK means SQLite already rolled back; the original error is the one to report.
            try? execute("ROLLBACK")
            throw error
        }
    }
}
