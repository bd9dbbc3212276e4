import DrawCore
import Foundation

/// Opening fails fast, with one `StorageError` line, on a file that is locked, in use by another
/// live-draw (`DataFileLock`), read-only, corrupt or from a newer live-draw; otherwise it brings
/// the schema up to date (`DrawStoreSchema`) and gives back the pages a migration freed.
extension DrawDatabase {
    static func open(_ configuration: SQLiteDrawStore.Configuration)
        throws(StorageError) -> (SQLiteConnection, compactionFailure: String?) {
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
    static func createDirectory(of path: String) throws(StorageError) {
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
}
