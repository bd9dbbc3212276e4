/// Ended draws' records where every node of a cluster can read them, so `GET /api/draws/ID`
/// answers on any node, not only the one that ran the draw (cluster mode, docs/SCALING.md).
///
/// The running node keeps each record once its end is on its own disk, as the history API's
/// body; a node that has no such draw in its own store asks here. Synchronous and blocking:
/// call it from a thread that may wait (the server's storage thread).
public protocol SharedDrawRecords: Sendable {
    /// Keeps the record body of an ended draw of `room`, listed by `startedAtMs`.
    func keep(drawId: String, room: String, startedAtMs: Double, body: [UInt8]) throws(CoordinationError)

    /// The record body of draw `drawId`, or `nil` when no node kept one.
    func body(drawId: String) throws(CoordinationError) -> [UInt8]?

    /// Keeps a draw's entrants (`EntrantsEncoding.canonicalJSON`) once its plan is public, so
    /// `GET /api/draws/ID/entrants` answers on every node, while it runs and after.
    func keepEntrants(drawId: String, _ list: SharedEntrantList) throws(CoordinationError)

    /// The entrants some node kept for `drawId`, or `nil`.
    func entrants(drawId: String) throws(CoordinationError) -> SharedEntrantList?
}

/// A draw's entrants as the cluster shares them: the canonical JSON and its SHA-256 (hex), the
/// draw's `entrantsHash`.
public struct SharedEntrantList: Sendable, Hashable {
    public var hash: String
    public var json: [UInt8]

    public init(hash: String, json: [UInt8]) {
        self.hash = hash
        self.json = json
    }
}
