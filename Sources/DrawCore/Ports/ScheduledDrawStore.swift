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
    /// Takes the draw `drawId` out at its time: `early` (nothing taken) while its time has not
    /// come by the store's clock, which all the nodes of a cluster share.
    func claimDue(drawId: String) throws(StorageError) -> ScheduledDrawClaim
    /// How far the store's clock is ahead of `clock`'s wall clock, in ms (negative: behind), for
    /// arming timers by the store's clock; `nil` when the store has no clock of its own (one
    /// node's SQLite file: the node's clock is the one).
    func clockOffsetMs(from clock: any DrawClock) throws(StorageError) -> Double?
    /// Keeps this caller's claim of `drawId` (taken at its time, its start put off because its
    /// room was busy) for another lease; false when it is no longer this caller's to start
    /// (started, or claimed by another node once this claim lapsed).
    func renewClaim(drawId: String) throws(StorageError) -> Bool
    /// The claimed draw is recorded (missed): it leaves the store for good. A started draw leaves
    /// it with its first recorded step (cluster mode: in the same script).
    func finishClaim(drawId: String) throws(StorageError)
    /// This caller claimed `draw` and will not start it (the server is stopping): another node,
    /// or this one's next start, takes it.
    func returnClaim(_ draw: ScheduledDraw) throws(StorageError)
}

extension ScheduledDrawStore {
    /// A store without a clock of its own: the caller's clock said the time came.
    public func claimDue(drawId: String) throws(StorageError) -> ScheduledDrawClaim {
        try claim(drawId: drawId).map(ScheduledDrawClaim.taken) ?? .gone
    }

    public func clockOffsetMs(from clock: any DrawClock) throws(StorageError) -> Double? { nil }

    /// A store whose claim takes the draw out for good (one node's SQLite file: no other node can
    /// take it meanwhile): the claim stays this caller's.
    public func renewClaim(drawId: String) throws(StorageError) -> Bool { true }

    /// The claim took it out already.
    public func finishClaim(drawId: String) throws(StorageError) {}

    /// Put back as it was kept.
    public func returnClaim(_ draw: ScheduledDraw) throws(StorageError) { _ = try schedule(draw) }
}
