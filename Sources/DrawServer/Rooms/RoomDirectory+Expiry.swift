import DrawCore
import DrawPresentation

/// Rooms that expire: a room kept in the store and unused for `ServerConfig.roomExpiryMs` is
/// deleted from the store (its history stays) and, when loaded and idle, from memory. Service
/// thread only; the store works on the storage thread.
///
/// A room in use is never expired from under its viewers: before each check, the rooms in use
/// whose last recorded activity is older than half the expiry time are touched, in the same job
/// and one transaction, ahead of the expiry. A room someone joined between the check and its
/// answer is kept back (`restore`).
extension RoomDirectory {
    /// Rooms expired per store call, so one job stays short; the next tick goes on while a
    /// batch comes back full.
    static let expiryBatch = 200

    /// From the housekeeping tick: ask the store to expire rooms, at most every
    /// `roomExpiryCheckNanos` (sooner while batches come back full).
    func expireRoomsIfDue() {
        guard storage.rooms != nil, !phase.shuttingDown, !loop.destroying else { return }
        let now = clock.monotonicNanos()
        if let last = lastExpiry, now >= last, now - last < config.roomExpiryCheckNanos { return }
        lastExpiry = now
        let nowMs = clock.epochMillis(), expiry = config.roomExpiryMs
        var stale: [String] = []
        for room in registry.all where !room.isIdle && room.name != RoomName.lobby && nowMs - room.touchedAtMs > expiry / 2 {
            room.touched(at: nowMs)
            stale.append(room.name)
        }
        let inUse = stale
        let draws = storage.roomsShareDrawThread ? storage.store : nil, cutoff = nowMs - expiry, batch = Self.expiryBatch
        _ = storage.roomJob({ store throws(StorageError) -> [RoomRecord] in
            let touchAll = { () throws(StorageError) in
                for name in inUse { try store.touchRoom(named: name, at: nowMs) }
            }
            // One transaction when the rooms live in the draw store (SQLite), else one call each.
            if !inUse.isEmpty {
                if let draws { try draws.inOneTransaction(touchAll) } else { try touchAll() }
            }
            return try store.expireRooms(idleBefore: cutoff, limit: batch)
        }) { [unowned self] result in
            switch result {
            case .success(let expired):
                for record in expired { self.expired(record, nowMs: nowMs) }
                if expired.count == batch { lastExpiry = nil } // more to do: the next tick goes on
            case .failure(let error):
                logger.error("could not expire rooms", metadata: ["error": "\(error)"])
            }
        }
    }

    /// The store expired `record`: unload the room if it is loaded and idle; if someone is using
    /// it after all, keep it (write it back, as active now).
    private func expired(_ record: RoomRecord, nowMs: Double) {
        guard let room = registry[record.name] else {
            logger.info("room expired", metadata: ["room": "\(record.name)"])
            return
        }
        if room.isIdle && !room.deleting {
            remove(room, reason: .expired)
            logger.info("room expired", metadata: ["room": "\(record.name)"])
        } else {
            restore(record, nowMs: nowMs)
        }
    }

    /// Writes an expired room that is in use back into the store, active at `nowMs`.
    private func restore(_ record: RoomRecord, nowMs: Double) {
        var restored = record
        restored.lastActivityAt = nowMs
        let kept = restored
        registry[record.name]?.touched(at: nowMs)
        let name = record.name
        _ = storage.roomJob({ store throws(StorageError) in try store.createRoom(kept) }) { [unowned self] result in
            if case .failure(let error) = result {
                logger.error("could not keep a room in use that had expired", metadata: ["room": "\(name)", "error": "\(error)"])
            }
        }
    }
}
