import CSQLite
import DrawCore

/// Group commit: many writes, one transaction, one fsync.
///
/// Each write of the group runs in its own savepoint, so a write that fails (a draw that is no
/// longer running, a duplicate id) is rolled back alone and the others stay. What a savepoint
/// cannot contain is a failure that ends the whole transaction: on some I/O errors (a full disk)
/// SQLite rolls back everything by itself. From then on every write of the group fails without
/// touching the database (it would otherwise run, and commit, on its own) and the group throws, so
/// the caller makes each write again alone and learns exactly which ones can be kept.
extension DrawDatabase {
    /// The transaction `inOneTransaction` holds open.
    struct WriteGroup {
        /// Why the transaction is gone, once it is.
        var lost: String?
    }

    /// Runs `body`, whose writes (of any table) all join one transaction, committed once at
    /// the end; each in its own savepoint (see above). Nested calls join the open group.
    func inOneTransaction(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        try locked { (db) throws(StorageError) in
            // Nested: the writes simply join the group already open.
            guard group == nil else { return try body() }
            let operation = "commit a group of writes"
            do throws(SQLiteFailure) {
                try db.execute("BEGIN IMMEDIATE")
            } catch {
                throw .writeFailed(path: path, operation: "begin a group of writes", reason: error.message)
            }
            group = WriteGroup()
            var failure: StorageError?
            do throws(StorageError) {
                try body()
            } catch let error {
                failure = error
            }
            let lost = group?.lost
            group = nil
            if failure == nil, let lost {
                failure = .writeFailed(path: path, operation: operation, reason: lost)
            }
            if failure == nil {
                do throws(SQLiteFailure) {
                    try db.execute("COMMIT")
                    return
                } catch {
                    failure = .writeFailed(path: path, operation: operation, reason: error.message)
                }
            }
            // Best effort: after a lost transaction there is nothing left to roll back.
            if !db.isAutocommit { try? db.execute("ROLLBACK") }
            throw failure ?? .writeFailed(path: path, operation: operation, reason: "unknown")
        }
    }

    /// Runs one write (or read) of the open group, in a savepoint. The caller holds the lock.
    func inGroup<T>(_ db: SQLiteConnection, writing: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        if let lost = group?.lost {
            throw SQLiteFailure(code: SQLITE_ABORT, message: "not written: the transaction of its group failed (\(lost))")
        }
        guard writing else { return try body(db) }   // a read sees the group's writes so far
        try db.execute("SAVEPOINT write")
        do {
            let result = try body(db)
            try db.execute("RELEASE write")
            return result
        } catch {
            if db.isAutocommit {
                // SQLite rolled the whole transaction back: the group is lost.
                group?.lost = (error as? SQLiteFailure)?.message ?? "\(error)"
            } else {
                try? db.execute("ROLLBACK TO write")
                try? db.execute("RELEASE write")
            }
            throw error
        }
    }
}
