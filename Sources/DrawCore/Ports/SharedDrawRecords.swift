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
}
