import DrawCore

/// The rooms kept for good, on `RoomTable`.
extension SQLiteDrawStore: RoomStore {
    public func createRoom(_ room: RoomRecord) throws(StorageError) { try rooms.createRoom(room) }

    public func room(named name: String) throws(StorageError) -> RoomRecord? { try rooms.room(named: name) }

    @discardableResult
    public func touchRoom(named name: String, at: Double) throws(StorageError) -> Bool {
        try rooms.touchRoom(named: name, at: at)
    }

    @discardableResult
    public func deleteRoom(named name: String) throws(StorageError) -> Bool { try rooms.deleteRoom(named: name) }

    @discardableResult
    public func replaceKeyHash(ofRoom name: String, with keyHash: HostKeyHash, at: Double) throws(StorageError) -> Bool {
        try rooms.replaceKeyHash(ofRoom: name, with: keyHash, at: at)
    }

    public func expireRooms(idleBefore cutoff: Double, limit: Int) throws(StorageError) -> [RoomRecord] {
        try rooms.expireRooms(idleBefore: cutoff, limit: limit)
    }

    public func roomCount() throws(StorageError) -> Int { try rooms.roomCount() }

    @discardableResult
    public func replaceEntrants(ofRoom name: String, with entrants: RoomEntrants?, at: Double) throws(StorageError) -> Bool {
        try rooms.replaceEntrants(ofRoom: name, with: entrants, at: at)
    }

    @discardableResult
    public func replaceSourceURLs(ofRoom name: String, with urls: DrawSources, at: Double) throws(StorageError) -> Bool {
        try rooms.replaceSourceURLs(ofRoom: name, with: urls, at: at)
    }

    public func entrants(ofRoom name: String) throws(StorageError) -> RoomEntrants? { try rooms.entrants(ofRoom: name) }

    @discardableResult
    public func replaceSettings(ofRoom name: String, with settings: RoomSettings, at: Double) throws(StorageError) -> Bool {
        try rooms.replaceSettings(ofRoom: name, with: settings, at: at)
    }
}

/// Cluster mode's history outbox, on `HistoryOutboxTable`.
extension SQLiteDrawStore: HistoryOutboxStore {
    public func owe(_ line: OwedHistoryLine) throws(StorageError) { try outbox.owe(line) }

    public func owed(limit: Int) throws(StorageError) -> [OwedHistoryLine] { try outbox.owed(limit: limit) }

    public func settle(drawId: String) throws(StorageError) { try outbox.settle(drawId: drawId) }

    @discardableResult
    public func markRunningInterruptedOwingLines(at: Double) throws(StorageError) -> Int {
        try outbox.markRunningInterruptedOwingLines(at: at)
    }

    public func newestDraws(limit: Int, since: Double) throws(StorageError) -> [(drawId: String, room: String)] {
        try outbox.newestDraws(limit: limit, since: since)
    }
}

/// The draws waiting for their time, on `ScheduledDrawTable`.
extension SQLiteDrawStore: ScheduledDrawStore {
    public func schedule(_ draw: ScheduledDraw) throws(StorageError) -> Bool { try scheduled.schedule(draw) }

    public func scheduledDraws() throws(StorageError) -> [ScheduledDraw] { try scheduled.scheduledDraws() }

    public func scheduledDraw(id drawId: String) throws(StorageError) -> ScheduledDraw? {
        try scheduled.scheduledDraw(id: drawId)
    }

    public func claim(drawId: String) throws(StorageError) -> ScheduledDraw? { try scheduled.claim(drawId: drawId) }
}

/// Cluster mode's archive of ended draws, on `ArchiveTable`.
extension SQLiteDrawStore: DrawArchive {
    public func archive(_ draws: [ArchivedDraw], cursor: String) throws(StorageError) {
        try archived.archive(draws, cursor: cursor)
    }

    public func archiveCursor() throws(StorageError) -> String? { try archived.cursor() }

    public func archivedBody(drawId: String) throws(StorageError) -> [UInt8]? { try archived.body(drawId: drawId) }

    public func archivedEntrants(drawId: String) throws(StorageError) -> SharedEntrantList? {
        try archived.entrants(drawId: drawId)
    }

    public func archivedLines(room: String, before: Int64?, limit: Int) throws(StorageError)
        -> [(position: Int64, summary: [UInt8])] {
        try archived.lines(room: room, before: before, limit: limit)
    }
}
