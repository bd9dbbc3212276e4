/// Why the draw store could not do what it was asked, in one line an operator can act on.
///
/// The open-time cases (`cannotOpen` … `migrationFailed`) mean the server must not start: it would
/// run draws it cannot record. The write-time cases are what a running draw gets when its record
/// cannot be kept; the server then aborts that draw cleanly instead of going on unrecorded.
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or created (missing directory, a path under a regular file,
    /// permissions, I/O error).
    case cannotOpen(path: String, reason: String)
    /// Another connection or process held a lock longer than the busy timeout.
    case locked(path: String, waitedMs: Int)
    /// Another live-draw process has the database open (one server per data directory).
    case inUse(path: String)
    /// The database can only be read (file, directory or mount not writable).
    case readOnly(path: String)
    /// The file is not an SQLite database, or is damaged.
    case corrupt(path: String, detail: String)
    /// The file was written by a newer live-draw whose schema this one does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A schema migration failed; the database was left at its old version.
    case migrationFailed(path: String, toVersion: Int, reason: String)
    /// A write was refused (disk full, lock held too long, I/O error); nothing of it was kept.
    case writeFailed(path: String, operation: String, reason: String)
    /// A read failed, or what was stored cannot be decoded.
    case readFailed(path: String, operation: String, reason: String)
    /// No record has this draw id.
    case unknownDraw(drawId: String)
    /// A record with this draw id exists already.
    case duplicateDraw(drawId: String)
    /// The draw has already ended, so it takes no more rounds and cannot end again.
    case notRunning(drawId: String, status: DrawStatus)
    /// The draw's plan has no such round.
    case unknownRound(drawId: String, round: Int)
    /// A room of this name is kept already (`RoomStore.createRoom`).
    case duplicateRoom(name: String)
    /// The store was closed.
    case closed(path: String)

    /// Whether a write was refused because the store is full: the shared store's (Redis) writes
    /// fail with Redis' own error reply as the reason, `OOM …` once `maxmemory` is reached under
    /// `noeviction` (issue 44: full is an answer, `cluster_full`, not an absent store).
    public var isOutOfMemory: Bool {
        guard case .writeFailed(_, _, let reason) = self else { return false }
        return reason.hasPrefix("OOM ") || reason.contains("-OOM ")
    }

    /// One line, naming the database file and the cause.
    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "cannot open the draw database \(path): \(Self.oneLine(reason))"
        case .locked(let path, let ms):
            return "cannot use the draw database \(path): it is locked by another connection or process "
                + "(gave up after \(ms) ms); is another live-draw using the same data directory?"
        case .inUse(let path):
            return "cannot open the draw database \(path): another live-draw process is using it; "
                + "run one server per data directory"
        case .readOnly(let path):
            return "cannot open the draw database \(path): it is read-only; check the permissions of "
                + "the file and its directory, and that the file system is mounted read-write"
        case .corrupt(let path, let detail):
            return "cannot open the draw database \(path): the file is not a valid SQLite database or is "
                + "damaged (\(Self.oneLine(detail))); move it aside to start an empty history"
        case .newerSchema(let path, let found, let supported):
            return "cannot open the draw database \(path): its schema version \(found) is newer than "
                + "the \(supported) this live-draw knows; upgrade live-draw or use another data directory"
        case .migrationFailed(let path, let version, let reason):
            return "cannot upgrade the draw database \(path) to schema version \(version) "
                + "(left unchanged): \(Self.oneLine(reason))"
        case .writeFailed(let path, let operation, let reason):
            return "could not write to the draw database \(path) (\(operation)): \(Self.oneLine(reason))"
        case .readFailed(let path, let operation, let reason):
            return "could not read the draw database \(path) (\(operation)): \(Self.oneLine(reason))"
        case .unknownDraw(let id):
            return "the draw database has no draw \(id)"
        case .duplicateDraw(let id):
            return "the draw database already has a draw \(id)"
        case .notRunning(let id, let status):
            return "draw \(id) is \(status.rawValue), not running"
        case .unknownRound(let id, let round):
            return "draw \(id) has no round \(round)"
        case .duplicateRoom(let name):
            return "the draw database already has a room \(name)"
        case .closed(let path):
            return "the draw database \(path) is closed"
        }
    }

    /// Causes come from SQLite and the OS; a stray line break must not split a log line.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
