import CSQLite
import DrawCore

extension SQLiteFailure {
    /// The `StorageError` for a failure while opening, configuring or migrating `path`.
    func openError(path: String, busyTimeoutMs: Int) -> StorageError {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: return .locked(path: path, waitedMs: busyTimeoutMs)
        case SQLITE_READONLY: return .readOnly(path: path)
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .corrupt(path: path, detail: message)
        default: return .cannotOpen(path: path, reason: message)
        }
    }
}
