import DrawCore

/// Presence summed across the cluster: once a second this node reports its viewer count in each
/// room it has viewers in (and a last 0 for a room it just left), and learns the other nodes'.
/// A report lives `presenceTTLMs` (three reports), so a dead node's viewers stop counting soon.
extension ClusterNode {
    static let presenceTTLMs = 3_000.0

    /// Reports `counts` (room → viewers here) on the worker; `arrived` runs here for each room
    /// with the other nodes' total.
    func reportPresence(_ counts: [String: Int], nowMs: Double, arrived: @escaping (String, Int) -> Void) {
        guard let board = services.presence else { return }
        let node = nodeId, callback = ServiceCallback<(String, Int)> { arrived($0.0, $0.1) }
        for (room, viewers) in counts {
            worker.submit { [inbox] in
                guard let reports = try? board.report(room: room, node: node, viewers: viewers, nowMs: nowMs,
                                                      ttlMs: Self.presenceTTLMs) else { return }
                let others = PresenceReport.othersTotal(reports, excluding: node, nowMs: nowMs)
                inbox.post(.clusterReturned { callback((room, others)) })
            }
        }
    }
}
