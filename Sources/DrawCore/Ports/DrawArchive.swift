/// A node's own copy of every ended draw it learns of in cluster mode (issue 44): the shared
/// store keeps a draw for its retention window only (`HistoryRetention`); this keeps it for good,
/// so a draw ended on another node a month ago still reads and verifies here. Synchronous and
/// blocking: called on the draw store's thread.
public protocol DrawArchive: Sendable {
    /// Keeps `draws` (one already kept is left as it is) and, in the same transaction, the
    /// cursor of the shared store's ends read so far.
    func archive(_ draws: [ArchivedDraw], cursor: String) throws(StorageError)

    /// The cursor the last `archive` kept; `nil` before the first.
    func archiveCursor() throws(StorageError) -> String?

    /// The record of `drawId`, its list put back in; `nil` when not kept.
    func archivedBody(drawId: String) throws(StorageError) -> [UInt8]?

    /// The entrant list of `drawId`; `nil` when not kept or it has none.
    func archivedEntrants(drawId: String) throws(StorageError) -> SharedEntrantList?

    /// Up to `limit` history lines of `room` below `before` (a position; `nil`: from the
    /// newest), newest first, each with its position.
    func archivedLines(room: String, before: Int64?, limit: Int) throws(StorageError) -> [(position: Int64, summary: [UInt8])]
}
