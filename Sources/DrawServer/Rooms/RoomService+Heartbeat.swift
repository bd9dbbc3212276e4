/// Heartbeats for quiet rooms (`RoomHeartbeat`), from the housekeeping tick. Service thread only.
extension RoomService {
    /// Sends a `heartbeat` to every watched room that broadcast nothing for the configured
    /// interval. Not during shutdown: a room's last messages before the close are the draw's.
    func sendHeartbeats() {
        guard !phase.shuttingDown, !loop.destroying else { return }
        RoomHeartbeat(intervalSeconds: config.heartbeatSeconds).tick(
            registry.all, nowNanos: clock.monotonicNanos(), epochMillis: clock.epochMillis) { broadcast($1, in: $0) }
    }
}
