import DrawCore

/// The draw store's side of the server: handing writes to the storage thread, and closing the
/// store at the end. Service thread only, except `closeStore()` (see there).
extension LiveDrawServer {
    /// The runner's `record` dependency for room `room`: each write runs on the storage thread
    /// and its result comes back through the inbox as `.recorded`. `nil` without a store.
    func recorder(room: String) -> ((DrawWrite) -> Void)? {
        guard let storage, store != nil else { return nil }
        let inbox = self.inbox
        return { write in
            // Rule 5: the store is called on the storage thread only; the result goes back by
            // the inbox (rule 2).
            storage.submit(write) { error in inbox.post(.recorded(room: room, write, error: error)) }
        }
    }

    /// Shutdown's first phase: queue a barrier behind every write submitted so far (the aborts'
    /// records included). False without a store: there is nothing to wait for.
    func awaitStorageDrain() -> Bool {
        guard let storage else { return false }
        let inbox = self.inbox
        return storage.submit { inbox.post(.storageDrained) }
    }

    /// Ends the storage thread and closes the store, once the service loop is over (end of
    /// `run()`) or from `deinit`; never concurrently with the service thread. Writes still queued
    /// (the shutdown grace ran out) then fail as `closed`; their draws stay `running` on disk and
    /// the next start marks them `interrupted`, which is exactly what a crash would have left.
    func closeStore() {
        guard let storage else { return }
        self.storage = nil
        storage.finish()
        let left = storage.pending
        if left > 0 {
            logger.warning("closing the draw store with writes still queued; the next start marks their draws interrupted",
                           metadata: ["queued": "\(left)"])
        }
        // Waits for the call in progress, if any (SQLiteDrawStore takes its lock).
        store?.close()
    }
}
