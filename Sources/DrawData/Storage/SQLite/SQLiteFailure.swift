import CSQLite
import Foundation

/// What SQLite said when a call failed: its extended result code and its message.
///
/// Internal: the store turns it into a `StorageError` that also says which file and which
/// operation, so no SQLite code ever reaches Core.
struct SQLiteFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extended result code (extended codes are switched on for every connection).
    let code: Int32
    /// `sqlite3_errmsg`, plus the OS error when SQLite reported one (e.g. "Not a directory").
    let message: String

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …), the low byte.
    var primaryCode: Int32 { code & 0xff }

    var description: String { "\(message) (SQLite code \(code))" }

    /// The failure of the last call on `handle`, which returned `code`. Reads the message at once:
    /// the next call on the handle would overwrite it (the store's lock keeps other threads out).
    init(code: Int32, handle: OpaquePointer?) {
        self.code = code
        var text = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        let osError = handle.map { sqlite3_system_errno($0) } ?? 0
        if osError != 0 {
            text += ": \(String(cString: strerror(osError)))"
        }
        self.message = text
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }
}
