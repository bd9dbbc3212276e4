import DrawCore

/// The draw store on SQLite: the one adapter for Core's storage ports over one database file.
///
/// A composition, no SQL of its own: the file, its connection, lock, transactions and schema
/// belong to `DrawDatabase`; each table's SQL to the store that owns it, all over that one
/// database, so their writes share its transactions (`inOneTransaction` takes room writes too):
/// the draw records (`DrawRecordWriter`, `DrawRecordReader`), the rooms and their own lists
/// (`RoomTable`), cluster mode's history outbox (`HistoryOutboxTable`), the scheduled draws
/// (`ScheduledDrawTable`) and the entrant lists they reference (`EntrantListTable`).
///
/// Opening fails fast, with one `StorageError` line, on a file that is locked, in use by another
/// live-draw (`DataFileLock`), read-only, corrupt or from a newer live-draw; otherwise it brings
/// the schema up to date (`DrawStoreSchema`). Durability (WAL, `synchronous=FULL`) and group
/// commit are `DrawDatabase`'s.
///
/// Threading: every public method may be called from any thread; they block the caller (disk
/// I/O), so the server calls them from its storage thread, never the service thread.
public final class SQLiteDrawStore: Sendable {
    let database: DrawDatabase
    let writer: DrawRecordWriter
    let reader: DrawRecordReader
    let rooms: RoomTable
    let outbox: HistoryOutboxTable
    let scheduled: ScheduledDrawTable
    let archived: ArchiveTable

    /// The database file, as configured.
    public var path: String { database.path }
    /// Why the `VACUUM` after a migration failed, when it did (`nil` otherwise): the file is
    /// correct but keeps its free pages, which the operator should hear of (the caller logs it;
    /// docs/STORAGE.md says how to compact by hand).
    public var compactionFailure: String? { database.compactionFailure }

    /// Opens (or creates) the database and migrates it to the current schema.
    public init(configuration: Configuration) throws(StorageError) {
        database = try DrawDatabase(configuration: configuration)
        writer = DrawRecordWriter(database: database)
        reader = DrawRecordReader(database: database)
        rooms = RoomTable(database: database)
        outbox = HistoryOutboxTable(database: database)
        scheduled = ScheduledDrawTable(database: database)
        archived = ArchiveTable(database: database)
    }

    /// Opens (or creates) the database at `path`, whose directory must exist.
    public convenience init(path: String) throws(StorageError) {
        try self.init(configuration: Configuration(path: path))
    }

    /// The schema version of the open file (`DrawStoreSchema.currentVersion` after a successful open).
    public func schemaVersion() throws(StorageError) -> Int {
        try database.read("read the schema version") { db in try db.scalarInt("PRAGMA user_version") }
    }

    /// Test hook: runs `body` on the connection under the lock, outside any transaction.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try database.withConnection(body)
    }
}

/// The draw records: writes to `writer`, reads to `reader`, the rest to the database.
extension SQLiteDrawStore: DrawRecordStore {
    /// Closes the connection; later calls throw `StorageError.closed`. Idempotent.
    public func close() { database.close() }

    public func inOneTransaction(_ body: () throws(StorageError) -> Void) throws(StorageError) {
        try database.inOneTransaction(body)
    }

    public func insertStarted(_ record: NewDrawRecord) throws(StorageError) { try writer.insertStarted(record) }

    public func recordBeacon(_ plan: DrawPlan) throws(StorageError) { try writer.recordBeacon(plan) }

    public func stampStarted(drawId: String, startedAt: Double) throws(StorageError) {
        try writer.stampStarted(drawId: drawId, startedAt: startedAt)
    }

    public func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError) {
        try writer.recordRound(drawId: drawId, round: round, sentAt: sentAt)
    }

    public func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError) {
        try writer.finish(drawId: drawId, ending: ending, finishedAt: finishedAt)
    }

    public func insertFailed(_ record: FailedDrawRecord) throws(StorageError) { try writer.insertFailed(record) }

    @discardableResult
    public func markRunningInterrupted(at: Double) throws(StorageError) -> Int {
        try writer.markRunningInterrupted(at: at)
    }

    public func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage {
        try reader.list(room: room, page: page)
    }

    public func record(id: String) throws(StorageError) -> DrawRecord? { try reader.record(id: id) }
}
