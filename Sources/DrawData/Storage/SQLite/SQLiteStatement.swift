import CSQLite

/// Owns one prepared statement: `sqlite3_prepare_v2` in `SQLiteConnection.prepare`,
/// `sqlite3_finalize` in `deinit`, and nowhere else.
///
/// Not `Sendable`: like its connection, it is only used under `DrawDatabase`'s lock.
final class SQLiteStatement {
    /// Kept strongly so the connection cannot close while one of its statements is alive.
    private let connection: SQLiteConnection
    private let handle: OpaquePointer

    init(connection: SQLiteConnection, handle: OpaquePointer) {
        self.connection = connection
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1...n, in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteFailure) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .real(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v):
                // withCString hands over the whole UTF-8 buffer; the explicit byte count keeps
                // any interior NUL, and ldsql_bind_text makes SQLite copy it before returning.
                rc = v.withCString { ldsql_bind_text(handle, index, $0, Int32(v.utf8.count)) }
            }
            guard rc == SQLITE_OK else { throw connection.failure(rc) }
        }
    }

    /// Binds `text` (UTF-8 bytes) to parameter `index` without SQLite copying it, for `body`
    /// only (which steps the statement); the parameter is `NULL` again after.
    ///
    /// Why (issue 31): an entrant list of 100,000 is about 10 MB of JSON, and every copy of it
    /// counts in an upload's peak memory. `bind` lets SQLite copy (`SQLITE_TRANSIENT`), so the
    /// caller's buffer may go at once; here SQLite reads the caller's buffer in place
    /// (`SQLITE_STATIC`, a `nil` destructor), which is sound only while the buffer is pinned,
    /// so the binding lives exactly as long as the `withUnsafeBufferPointer` around `body`.
    func withText<R>(_ text: [UInt8], at index: Int32, _ body: () throws(SQLiteFailure) -> R) throws(SQLiteFailure) -> R {
        let outcome: Result<R, SQLiteFailure> = text.withUnsafeBufferPointer { buffer in
            let rc = buffer.baseAddress.map {
                sqlite3_bind_text(handle, index, UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil)
            } ?? ldsql_bind_text(handle, index, "", 0)
            guard rc == SQLITE_OK else { return .failure(connection.failure(rc)) }
            defer {
                // The step's row or error is the caller's already: release the pointer.
                sqlite3_reset(handle)
                sqlite3_bind_null(handle, index)
            }
            do throws(SQLiteFailure) { return .success(try body()) } catch { return .failure(error) }
        }
        return try outcome.get()
    }

    /// Makes the statement ready to run again with new bindings.
    func reset() {
        // sqlite3_reset repeats the last step's error, which the caller has already handled.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when done.
    func step() throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.failure(rc)
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteFailure) {
        while try step() {}
    }

    /// Column `index` (0-based) of the current row.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }
    func double(_ index: Int32) -> Double? { isNull(index) ? nil : sqlite3_column_double(handle, index) }

    func text(_ index: Int32) -> String? {
        guard !isNull(index), let bytes = sqlite3_column_text(handle, index) else { return nil }
        // By byte count, not up to the first NUL, so the text comes back exactly as bound.
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
