/// Draws' records and the rooms' history where every node of a cluster reads them, so
/// `GET /api/draws/ID` and `GET /api/rooms/ROOM/draws` answer the same on every node
/// (cluster mode, docs/SCALING.md).
///
/// The running node keeps a draw here each time its own store recorded a step that changes its
/// history line (planned, started, ended, failed): the summary line and the record body. The
/// first keep of a draw gives it the next position of the cluster's history sequence, so pages
/// are keyset-paged like the store's (`DrawRecordStore.list`): newest first, a cursor is a
/// position, draws added meanwhile never make a page repeat or skip one. Synchronous and
/// blocking: call it from a thread that may wait (the server's storage thread).
public protocol SharedDrawRecords: Sendable {
    /// Keeps (or replaces) draw `drawId` of `room`: its history line (`summary`, one JSON object
    /// as the listing shows it) and its record (`body`, as `GET /api/draws/ID` returns it).
    func keep(drawId: String, room: String, summary: [UInt8], body: [UInt8]) throws(CoordinationError)

    /// The record body of draw `drawId`, or `nil` when no node kept one.
    func body(drawId: String) throws(CoordinationError) -> [UInt8]?

    /// One page of the room's history, newest first.
    func page(room: String, request: DrawPageRequest) throws(CoordinationError) -> SharedDrawPage
}
