import DrawCore

/// Presence summed across the cluster: once a second this node reports its viewer count in each
/// room it has viewers in (and a last 0 for a room it just left), and learns the other nodes'.
/// A report lives `presenceTTLMs` (three reports), so a dead node's viewers stop counting soon.
/// All the rooms go in one call to the board (one round trip to Redis per tick, not one per room).
extension ClusterNode {
    static let presenceTTLMs = 3_000.0

    /// Reports `counts` (room → viewers here) on the worker; `arrived` runs here for each room
    /// with the other nodes' total.
    func reportPresence(_ counts: [String: Int], nowMs: Double, arrived: @escaping (String, Int) -> Void) {
        guard let board = services.presence else { return }
        let node = nodeId, callback = ServiceCallback<(String, Int)> { arrived($0.0, $0.1) }
        guard !counts.isEmpty else { return }
        worker.submit { [inbox] in
            guard let all = try? board.reportAll(counts, node: node, nowMs: nowMs, ttlMs: Self.presenceTTLMs) else { return }
            let totals = all.map { ($0.key, PresenceReport.othersTotal($0.value, excluding: node, nowMs: nowMs)) }
            inbox.post(.clusterReturned { for total in totals { callback(total) } })
        }
    }
}
