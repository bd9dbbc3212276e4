import DrawPresentation

extension RoomHeartbeat {
    /// One housekeeping tick: every watched room that is due gets a `heartbeat` through `send`
    /// (the server's broadcast, so it is stored once in the room's ring and shared by all its
    /// viewers). The message is encoded at most once per tick, for all rooms. Returns how many
    /// rooms got one. Service thread only (it touches rooms).
    @discardableResult
    func tick<Rooms: Sequence<Room>>(_ rooms: Rooms, nowNanos: UInt64, epochMillis: () -> Double,
                                     send: (Room, [UInt8]) -> Void) -> Int {
        guard intervalNanos > 0 else { return 0 }
        var message: [UInt8]?
        var sent = 0
        for room in rooms where !room.members.isEmpty {
            guard isDue(&room.heartbeatQuiet, seq: room.ring.nextSeq, nowNanos: nowNanos) else { continue }
            if message == nil {
                message = WireMessages.heartbeat(intervalMs: Int(intervalNanos / 1_000_000), serverTime: epochMillis())
            }
            send(room, message!)
            self.sent(&room.heartbeatQuiet, seq: room.ring.nextSeq, nowNanos: nowNanos)
            sent += 1
        }
        return sent
    }
}
