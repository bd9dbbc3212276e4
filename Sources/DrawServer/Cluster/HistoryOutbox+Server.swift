import DrawCore
import Logging

extension HistoryOutbox {
    /// The server's outbox: the shared history of `node`, its durable rows in the node's SQLite
    /// store, the record reads and row writes on the draw store's thread and the keeps on the
    /// shared store's (as `ClusterRooms` does its other Redis work). `nil` without a shared
    /// history or a draw store: nothing to share, or nothing to share from.
    static func make(node: ClusterNode, storage: ServerStorage, loop: any RoomLoop, clock: any DrawClock,
                     logger: Logger) -> HistoryOutbox? {
        guard let records = node.services.records, let store = storage.store else { return nil }
        let backend = Backend(records: records, rows: node.services.outbox,
                              localRecord: { id throws(StorageError) in try store.record(id: id) },
                              onStore: { [unowned storage] job in storage.submit(job, reading: .draws) },
                              onShared: { [unowned storage] job in storage.submit(job, reading: .shared) })
        return HistoryOutbox(backend: backend, loop: loop, clock: clock, logger: logger,
                             windowMs: node.services.retention.windowMs)
    }
}
