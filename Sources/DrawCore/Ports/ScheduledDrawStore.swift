/// Where scheduled draws wait for their time (issue 30), so they survive a restart and, in
/// cluster mode, any node can start one whose scheduling node died: the SQLite store on one node,
/// Redis in cluster mode (the room store's place). Synchronous like `RoomStore`: called on the
/// thread that calls the room store.
///
/// A room has at most one scheduled draw. Taking one out (`claim`) is atomic: of several callers,
/// exactly one gets it, and only that one starts (or records) the draw.
public protocol ScheduledDrawStore: Sendable {
    /// Keeps `draw` as its room's scheduled draw. Returns false, keeping nothing, when the room
    /// already has one.
    func schedule(_ draw: ScheduledDraw) throws(StorageError) -> Bool
    /// Every draw waiting, soonest first.
    func scheduledDraws() throws(StorageError) -> [ScheduledDraw]
    /// The draw `drawId`, while it waits.
    func scheduledDraw(id drawId: String) throws(StorageError) -> ScheduledDraw?
    /// Takes the draw `drawId` out; returns it to the one caller that took it, `nil` to any other
    /// (it was taken already, or never kept).
    func claim(drawId: String) throws(StorageError) -> ScheduledDraw?
}
