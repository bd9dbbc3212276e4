/// Where rooms are kept for good, so that a room, its name and its host key survive a restart and
/// the eviction of idle rooms from memory.
///
/// Meant to be used this way: the server keeps in memory only the rooms in use and loads any
/// other on demand by name (`room(named:)`), when a viewer joins, a host starts a draw or the API
/// asks about it. It reports activity with `touchRoom`, and now and then removes the rooms idle
/// longer than its expiry time with `expireRooms`.
///
/// Synchronous, like `DrawRecordStore`, and for the same reason: the calls wait for the disk, so
/// the server makes them from its storage thread (the same one, when both are one SQLite store:
/// one connection, calls in submission order). Implementations are safe to call from several
/// threads; they serialise internally. Writes made inside `DrawRecordStore.inOneTransaction`
/// join that transaction.
///
/// Draw records are not rooms: deleting or expiring a room keeps its draws' history, which is
/// still listed under the room's name, also if a new room takes the name later.
///
/// Times are epoch milliseconds from the caller's clock; the store never reads a clock itself, so
/// tests decide what "now" is.
public protocol RoomStore: Sendable {
    /// Keeps a new room. Throws `duplicateRoom` if a room of that name is already kept (and changes
    /// nothing), or a write failure.
    func createRoom(_ room: RoomRecord) throws(StorageError)

    /// The room named `name`, or `nil` if none is kept (never created, deleted or expired).
    func room(named name: String) throws(StorageError) -> RoomRecord?

    /// Records that the room was used at `at`. Moves the last activity forward only: a touch with
    /// an earlier time (a clock stepped back, calls out of order) changes nothing. Returns whether
    /// the room exists.
    ///
    /// Each touch is a write (a disk sync outside a group commit): call it when something happens
    /// (a draw starts, a host joins), or at most every few minutes for a room being watched, not
    /// on every message. Expiry is counted in days.
    @discardableResult
    func touchRoom(named name: String, at: Double) throws(StorageError) -> Bool

    /// Forgets the room (its draws' history stays). Returns whether it existed.
    @discardableResult
    func deleteRoom(named name: String) throws(StorageError) -> Bool

    /// Rotates the room's host key: `keyHash` replaces the old hash, so the old key stops working,
    /// and the rotation counts as activity at `at`. Returns whether the room exists.
    @discardableResult
    func replaceKeyHash(ofRoom name: String, with keyHash: HostKeyHash, at: Double) throws(StorageError) -> Bool

    /// Forgets rooms whose last activity is before `cutoff` (now minus the expiry time), oldest
    /// first, at most `limit` of them so one call stays short; call again while it returns `limit`
    /// rooms. Returns the rooms it removed, as they were, so the caller can drop them from memory
    /// and log them. Their draws' history stays.
    ///
    /// A room in use must have been touched recently enough not to be removed; the store does not
    /// know what is in use.
    func expireRooms(idleBefore cutoff: Double, limit: Int) throws(StorageError) -> [RoomRecord]

    /// How many rooms are kept.
    func roomCount() throws(StorageError) -> Int

    /// Replaces the room's own entrant list, or with `nil` removes it (the room then draws from
    /// the operator's lists). All or nothing: a failure leaves the old list. Counts as activity at
    /// `at`. Returns whether the room exists.
    @discardableResult
    func replaceEntrants(ofRoom name: String, with entrants: RoomEntrants?, at: Double) throws(StorageError) -> Bool

    /// Keeps `urls` as where the room's list is fetched from when each draw starts, in place of
    /// an uploaded list (which goes; `replaceEntrants` with `nil` forgets the URLs too). Counts
    /// as activity at `at`. Returns whether the room exists.
    @discardableResult
    func replaceSourceURLs(ofRoom name: String, with urls: DrawSources, at: Double) throws(StorageError) -> Bool

    /// The room's own entrant list, whole; `nil` when it has none (or the room is not kept).
    func entrants(ofRoom name: String) throws(StorageError) -> RoomEntrants?

    /// Replaces the room's settings. Counts as activity at `at`. Returns whether the room exists.
    @discardableResult
    func replaceSettings(ofRoom name: String, with settings: RoomSettings, at: Double) throws(StorageError) -> Bool
}
