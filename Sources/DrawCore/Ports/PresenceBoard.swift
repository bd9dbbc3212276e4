/// Viewer counts summed across the nodes of a cluster (cluster mode, docs/SCALING.md): each node
/// reports its own count per room now and then, each with an expiry, and reads back what the
/// other nodes reported. A node that dies stops reporting, and its count is ignored once it
/// expires. Expiry is the board's clock, not a node's: nodes' clocks may disagree by seconds
/// (issue 36), and a report timed by one node's clock would be judged by another's.
///
/// Synchronous and blocking: call it from a thread that may wait.
public protocol PresenceBoard: Sendable {
    /// Records `viewers` as `node`'s count in `room` for `ttlMs` by the board's clock (0 removes
    /// it), and returns every node's report still live by that clock (this node's included).
    func report(room: String, node: String, viewers: Int, ttlMs: Double) throws(CoordinationError)
        -> [PresenceReport]

    /// `report` for many rooms at once (room → viewers), in as few round trips as the board can:
    /// a node reports every room it watches once a second. Returns each room's live reports.
    func reportAll(_ counts: [String: Int], node: String, ttlMs: Double) throws(CoordinationError)
        -> [String: [PresenceReport]]
}

extension PresenceBoard {
    /// One `report` per room.
    public func reportAll(_ counts: [String: Int], node: String,
                          ttlMs: Double) throws(CoordinationError) -> [String: [PresenceReport]] {
        var out: [String: [PresenceReport]] = [:]
        for (room, viewers) in counts {
            out[room] = try report(room: room, node: node, viewers: viewers, ttlMs: ttlMs)
        }
        return out
    }
}

/// One node's count in a room, as the board keeps it.
public struct PresenceReport: Sendable, Hashable {
    public var node: String
    public var viewers: Int
    /// Epoch ms, by the board's clock, after which the report no longer counts (the board drops it).
    public var expiresAtMs: Double

    public init(node: String, viewers: Int, expiresAtMs: Double) {
        self.node = node
        self.viewers = viewers
        self.expiresAtMs = expiresAtMs
    }

    /// The stored form: `count:expiresAtMs`.
    public var stored: String { "\(viewers):\(expiresAtMs)" }

    /// Reads the stored form; `nil` for anything else (a field from another version is ignored,
    /// and so is a time out of `EpochMillis`' range: a report that would count for ever).
    public init?(node: String, stored: String) {
        let parts = stored.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let viewers = Int(parts[0]), viewers >= 0, let expires = Double(parts[1]),
              EpochMillis.isInRange(expires) else { return nil }
        self.init(node: node, viewers: viewers, expiresAtMs: expires)
    }

    /// The viewers of every node but `node` in `reports` (live ones, as the board returns them):
    /// what this node adds to its own count. Not filtered by this node's clock again: the board
    /// judged expiry by its own (issue 36). Saturates rather than overflows.
    public static func othersTotal(_ reports: [PresenceReport], excluding node: String) -> Int {
        reports.reduce(0) { sum, r in
            guard r.node != node else { return sum }
            let (total, overflow) = sum.addingReportingOverflow(r.viewers)
            return overflow ? Int.max : total
        }
    }
}
