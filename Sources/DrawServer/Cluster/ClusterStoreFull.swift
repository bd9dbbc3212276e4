import Logging

/// Whether the cluster's shared store (Redis) is full, as this node last heard it (issue 44):
/// `maxmemory` reached under `noeviction`, so Redis answers writes with `-OOM` while reads go on.
/// A full store is not an absent one: starts are answered `cluster_full` rather than
/// `cluster_unavailable`, `/metrics` says so (`livedraw_cluster_store_full`), and the log says it
/// once when it begins and once when a write is taken again, not at every refused write of the
/// episode (a held draw retries five times a second). Service thread only.
final class ClusterStoreFull {
    private let metrics: ClusterMetrics
    private let logger: Logger
    /// Whether the last write this node heard answered was refused for want of memory.
    private(set) var isFull = false

    init(metrics: ClusterMetrics, logger: Logger) {
        self.metrics = metrics
        self.logger = logger
        metrics.storeFull(false)
    }

    /// Redis refused a write of this node's for want of memory (`CoordinationError.full`);
    /// `what` says which (a start's lease, a draw's step), `reason` is Redis' own words.
    func refused(_ what: String, reason: String) {
        metrics.refusedByFullStore()
        guard !isFull else { return }
        isFull = true
        metrics.storeFull(true)
        logger.error("the cluster's shared store (Redis) is full: maxmemory is reached, so no draw can start and running draws hold until an operator frees memory",
                     metadata: ["refused": "\(what)", "error": "\(reason)"])
    }

    /// Redis took a write of this node's: whatever filled it, there is room again.
    func wrote() {
        guard isFull else { return }
        isFull = false
        metrics.storeFull(false)
        logger.notice("the cluster's shared store (Redis) takes writes again")
    }
}
