import DrawCore
import DrawTransport

/// The room store as the server uses it: every call checked, in debug builds, to come from the
/// storage thread (threading rule 5), like `RecoveringDrawStore`'s, whose `owner` it shares (the
/// two are one SQLite connection in the executable, so one thread must call both).
/// `@unchecked Sendable`: both stored properties are immutable and thread-safe themselves.
final class CheckedRoomStore: RoomStore, @unchecked Sendable {
    let inner: any RoomStore
    let owner: ThreadOwner

    init(_ inner: any RoomStore, owner: ThreadOwner) {
        self.inner = inner
        self.owner = owner
    }

    func createRoom(_ room: RoomRecord) throws(StorageError) {
        owner.check()
        try inner.createRoom(room)
    }

    func room(named name: String) throws(StorageError) -> RoomRecord? {
        owner.check()
        return try inner.room(named: name)
    }

    @discardableResult
    func touchRoom(named name: String, at: Double) throws(StorageError) -> Bool {
        owner.check()
        return try inner.touchRoom(named: name, at: at)
    }

    @discardableResult
    func deleteRoom(named name: String) throws(StorageError) -> Bool {
        owner.check()
        return try inner.deleteRoom(named: name)
    }

    @discardableResult
    func replaceKeyHash(ofRoom name: String, with keyHash: HostKeyHash, at: Double) throws(StorageError) -> Bool {
        owner.check()
        return try inner.replaceKeyHash(ofRoom: name, with: keyHash, at: at)
    }

    func expireRooms(idleBefore cutoff: Double, limit: Int) throws(StorageError) -> [RoomRecord] {
        owner.check()
        return try inner.expireRooms(idleBefore: cutoff, limit: limit)
    }

    func roomCount() throws(StorageError) -> Int {
        owner.check()
        return try inner.roomCount()
    }
}

extension CheckedRoomStore {
    @discardableResult
    func replaceEntrants(ofRoom name: String, with entrants: RoomEntrants?, at: Double) throws(StorageError) -> Bool {
        owner.check()
        return try inner.replaceEntrants(ofRoom: name, with: entrants, at: at)
    }

    @discardableResult
    func replaceSourceURLs(ofRoom name: String, with urls: DrawSources, at: Double) throws(StorageError) -> Bool {
        owner.check()
        return try inner.replaceSourceURLs(ofRoom: name, with: urls, at: at)
    }

    func entrants(ofRoom name: String) throws(StorageError) -> RoomEntrants? {
        owner.check()
        return try inner.entrants(ofRoom: name)
    }

    @discardableResult
    func replaceSettings(ofRoom name: String, with settings: RoomSettings, at: Double) throws(StorageError) -> Bool {
        owner.check()
        return try inner.replaceSettings(ofRoom: name, with: settings, at: at)
    }
}
