import DrawCore

/// Group commit: the writes queued on the storage thread at one moment, made in one transaction
/// with one disk sync, each still reported with its own result.
///
/// Why: every commit waits for an fsync (`synchronous=FULL`: a published commitment's seed must
/// survive power loss). One transaction per write let a thousand rooms starting at once queue a
/// thousand fsyncs in a row, and `started` waited behind them for seconds. Grouped, the writes
/// that pile up during one commit all ride on the next.
///
/// Per-write results stay exact: inside the group each write runs in its own savepoint, so one
/// that fails (a draw no longer running) is reported failed and the others are kept. If the group
/// itself fails (its commit, or an I/O error that rolled the transaction back), none of it was
/// kept, so every write is made again alone, in order, and reported with that result: one bad
/// write never fails the others, and a write is never reported done that is not on disk.
enum GroupCommit {
    /// Makes `writes`, in order, and returns each one's error (`nil`: on disk) in the same order,
    /// and whether the group committed as one (false also for a group of one).
    static func run(_ writes: [DrawWrite], on store: RecoveringDrawStore) -> (errors: [StorageError?], grouped: Bool) {
        guard writes.count > 1 else { return (writes.map { alone($0, store) }, false) }
        var errors = [StorageError?](repeating: nil, count: writes.count)
        do throws(StorageError) {
            try store.inOneTransaction {
                for (i, write) in writes.enumerated() {
                    do throws(StorageError) { try write.apply(to: store) } catch { errors[i] = error }
                }
            }
            return (errors, true)
        } catch {
            return (writes.map { alone($0, store) }, false)
        }
    }

    /// One write in its own transaction.
    private static func alone(_ write: DrawWrite, _ store: RecoveringDrawStore) -> StorageError? {
        do throws(StorageError) {
            try write.apply(to: store)
            return nil
        } catch {
            return error
        }
    }
}
