/// Every room on this node, and the one place that decides which rooms stay in memory: lookup,
/// creation, idleness, eviction. Service thread only.
///
/// A room is *idle* when nobody watches it and no draw is loading, running or waiting for its
/// record (`Room.isIdle`). Idle rooms are kept in the order they became idle (`LRUOrder`), so:
/// - a room idle for `idleNanos` is evicted (`sweep`, from the server's housekeeping tick);
/// - at `maxRooms`, creating a room evicts the room idle the longest instead of refusing, and
///   creation is refused only when every room is in use;
/// - pinned rooms (the lobby) are never evicted.
/// A room that goes idle also gives back its buffers (ring, timers, runner) at the next sweep,
/// not at once: the moment it goes idle is usually inside one of its own timers or runner calls.
///
/// Eviction only unloads: with a room store, an evicted room stays kept there, its name taken and
/// its key valid, and comes back on the next lookup that misses here (`RoomDirectory+Loading`). Without
/// one (`--data-dir off`), an evicted room is gone. Rooms leave for good only by `remove`
/// (deleted by their host, or expired in the store).
final class RoomRegistry {
    /// Why a room was evicted (metrics, logs).
    enum EvictionReason: String {
        /// Idle for the configured time.
        case idle
        /// The least recently used idle room, to make space for a new one at `maxRooms`.
        case capacity
        /// Deleted by its host (`DELETE /api/rooms/ROOM`).
        case deleted
        /// Expired in the store (idle longer than the room expiry).
        case expired
    }

    /// Why a creation was refused.
    enum Refusal: Error {
        case exists
        /// At `maxRooms` with every room in use.
        case full
    }

    let maxRooms: Int
    let idleNanos: UInt64
    private let pinned: Set<String>
    private var byName: [String: Room] = [:]
    /// Idle, evictable rooms; the oldest became idle first (every `touch` happens at "now").
    private var idleOrder = LRUOrder<String>()
    /// Rooms that became idle since the last sweep, whose buffers the sweep gives back.
    private var toRelease = Set<String>()
    /// Called for each evicted room once it has left the registry (the server unsubscribes it).
    var onEvict: ((Room, EvictionReason) -> Void)?

    init(maxRooms: Int, idleNanos: UInt64, pinned: Set<String>) {
        self.maxRooms = max(1, maxRooms)
        self.idleNanos = idleNanos
        self.pinned = pinned
    }

    var count: Int { byName.count }
    /// Idle rooms that may be evicted (tests, metrics).
    var evictableCount: Int { idleOrder.count }
    var all: Dictionary<String, Room>.Values { byName.values }

    subscript(name: String) -> Room? { byName[name] }

    /// Adds the room `build` makes under `name`, evicting the least recently used idle room
    /// when at `maxRooms`. New rooms start idle.
    func create(named name: String, nowNanos: UInt64, build: (String) -> Room) -> Result<Room, Refusal> {
        guard byName[name] == nil else { return .failure(.exists) }
        sweep(nowNanos: nowNanos)
        if byName.count >= maxRooms {
            guard let victim = oldestIdle() else { return .failure(.full) }
            evict(victim, .capacity)
        }
        let room = build(name)
        byName[name] = room
        refresh(room, nowNanos: nowNanos)
        return .success(room)
    }

    /// Adds a room that is never evicted (the lobby), regardless of `maxRooms`.
    func insertPinned(_ room: Room) {
        precondition(pinned.contains(room.name) && byName[room.name] == nil)
        byName[room.name] = room
    }

    /// Re-reads whether `room` is idle after something happened in it (a viewer came or went, a
    /// draw event, a record written). Cheap: O(1).
    func refresh(_ room: Room, nowNanos: UInt64) {
        guard byName[room.name] === room else { return }
        if room.isIdle {
            guard room.idleSince == nil else { return }
            room.idleSince = nowNanos
            toRelease.insert(room.name)
            if !pinned.contains(room.name) { idleOrder.touch(room.name) }
        } else if room.idleSince != nil {
            room.idleSince = nil
            idleOrder.remove(room.name)
        }
    }

    /// Gives back the buffers of rooms that went idle, and evicts rooms idle for `idleNanos`.
    /// Costs O(rooms that changed), never a walk over every room.
    func sweep(nowNanos: UInt64) {
        for name in toRelease { byName[name]?.releaseBuffers() }
        toRelease.removeAll()
        while let name = oldestIdle(), let since = byName[name]?.idleSince {
            // `since` comes from the same monotonic clock; a reading from the past ends the loop.
            guard nowNanos >= since, nowNanos - since >= idleNanos else { break }
            evict(name, .idle)
        }
    }

    /// The room idle the longest. A room listed as idle that is in use after all (a refresh
    /// that has not come yet, e.g. a record handed off right after the draw's last event) is
    /// taken off the list here, so a room in use is never evicted.
    private func oldestIdle() -> String? {
        while let name = idleOrder.oldest {
            if let room = byName[name], room.idleSince != nil {
                if room.isIdle { return name }
                room.idleSince = nil
            }
            idleOrder.remove(name)
        }
        return nil
    }

    /// Takes `name` out of memory for good (deleted, expired); `onEvict` runs with `reason`.
    /// Pinned rooms stay.
    func remove(named name: String, reason: EvictionReason) {
        guard !pinned.contains(name) else { return }
        evict(name, reason)
    }

    /// Whether creating a room now would be refused as `full` (every room in use at `maxRooms`).
    var isFull: Bool { byName.count >= maxRooms && oldestIdle() == nil }

    /// Forgets every room (server teardown).
    func removeAll() {
        byName.removeAll()
        idleOrder = LRUOrder()
        toRelease.removeAll()
    }

    private func evict(_ name: String, _ reason: EvictionReason) {
        idleOrder.remove(name)
        toRelease.remove(name)
        guard let room = byName.removeValue(forKey: name) else { return }
        onEvict?(room, reason)
    }
}
