import DrawCore

/// Presence summed across the cluster: once a second this node reports its viewer count in each
/// room it has viewers in (and a last 0 for a room it just left), and learns the other nodes'.
/// A report lives `presenceTTLMs` (three reports) by Redis' clock, so a dead node's viewers stop
/// counting soon whatever this node's clock says.
/// All the rooms go in one call to the board (one round trip to Redis per tick, not one per room).
extension ClusterNode {
    static let presenceTTLMs = 3_000.0

    /// Reports `counts` (room → viewers here) on the worker; `arrived` runs here for each room
    /// with the other nodes' total.
    func reportPresence(_ counts: [String: Int], arrived: @escaping (String, Int) -> Void) {
        guard let board = services.presence else { return }
        let node = nodeId
        let back = executor.continuation { (totals: [OtherNodesViewers]) in for total in totals { arrived(total.room, total.viewers) } }
        guard !counts.isEmpty else { return }
        worker.submit {
            guard let all = try? board.reportAll(counts, node: node, ttlMs: Self.presenceTTLMs) else { return }
            back(all.map { OtherNodesViewers(room: $0.key, viewers: PresenceReport.othersTotal($0.value, excluding: node)) })
        }
    }
}

/// The other nodes' viewers in one room, as a presence report came back.
struct OtherNodesViewers: Sendable {
    let room: String
    let viewers: Int
}
