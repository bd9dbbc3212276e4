import DrawPresentation

/// Heartbeats for quiet rooms (`RoomHeartbeat`), from the housekeeping tick. Service thread only.
extension RoomBroadcaster {
    /// Every watched room that is due gets a `heartbeat` through `broadcast` (stored once in its
    /// ring, shared by all its viewers; the broadcast puts the room back at the end of the order).
    /// The message is encoded at most once per tick, for all rooms. Only due rooms are looked at,
    /// and no more of them than the tick's write budget (`RoomHeartbeat.takeDue`).
    func sendHeartbeats() {
        guard !phase.shuttingDown, !loop.destroying else { return }
        let now = clock.monotonicNanos()
        var message: [UInt8]?
        let budget = RoomHeartbeat.writeBudget(connections: loop.connectionCount,
                                               tickNanos: ServiceLoop.housekeepingTickNanos,
                                               intervalNanos: heartbeats.intervalNanos)
        // Rooms are forgotten lazily: one that emptied or went since it was heard drops out here.
        let due = heartbeats.takeDue(nowNanos: now, writeBudget: budget) { name in
            guard let members = directory[name]?.members.count, members > 0 else { return nil }
            return members
        }
        for name in due {
            guard let room = directory[name] else { continue }
            if message == nil {
                message = WireMessages.heartbeat(intervalMs: Int(heartbeats.intervalNanos / 1_000_000),
                                                 serverTime: clock.epochMillis())
            }
            broadcast(message!, in: room)
        }
    }

    /// A broadcast in `room`, or a change of its viewers: a room with viewers is quiet from now
    /// (a broadcast) or watched from now on (its first viewer); an empty room is forgotten.
    func heartbeatHeard(in room: Room, broadcast: Bool) {
        if room.members.isEmpty {
            heartbeats.forget(room.name)
        } else if broadcast || !heartbeats.isWatched(room.name) {
            heartbeats.heard(room.name, nowNanos: clock.monotonicNanos())
        }
    }
}
