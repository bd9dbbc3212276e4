import DrawCore
import Foundation

/// An exclusive `flock` on `<database>-lock`, held as long as the store is open: one live-draw
/// process per database.
///
/// Why: SQLite in WAL mode happily shares a file between processes, and startup recovery marks
/// every `running` draw `interrupted`. A second server on the same data directory would do that
/// to the first server's live draws. The kernel drops the lock when the process dies (even by
/// kill -9), so a crashed server never blocks its own restart. A sidecar file rather than SQLite's
/// EXCLUSIVE locking mode keeps the database readable by the `sqlite3` shell and backups meanwhile.
final class DataFileLock {
    let path: String
    private let descriptor: Int32

    /// Takes the lock without waiting; `inUse` if another process (or store) holds it.
    init(databasePath: String) throws(StorageError) {
        path = databasePath + "-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw .cannotOpen(path: databasePath, reason: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            let reason = String(cString: strerror(errno))
            Foundation.close(fd)
            throw busy ? .inUse(path: databasePath) : .cannotOpen(path: databasePath, reason: "cannot lock \(path): \(reason)")
        }
        descriptor = fd
    }

    deinit {
        // Closing the descriptor releases the flock.
        Foundation.close(descriptor)
    }
}
