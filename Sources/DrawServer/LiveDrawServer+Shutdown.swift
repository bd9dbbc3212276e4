/// Graceful shutdown. Service thread only (reached through `stop()` → inbox → here).
extension LiveDrawServer {
    static let abortReason = "server_shutdown"

    /// Stop accepting, end running draws as `aborted` (seed revealed), close every client with
    /// 1001 after it got what it is owed, and end the loop when they are gone or the grace
    /// period is over — whichever comes first.
    func beginShutdown() {
        guard !shuttingDown, !destroying else { return }
        logger.info("shutting down", metadata: ["clients": "\(clients.count)", "rooms": "\(rooms.count)"])
        // Aborts first: they are room broadcasts, so every client drains them before its close.
        for room in rooms.values { room.runner.abort(reason: Self.abortReason) }
        shuttingDown = true
        let graceMs = max(0, config.shutdownGraceMs)
        let graceSeconds = Int32(clamping: max(1, (graceMs + 999) / 1000))
        for client in Array(clients.values) {
            close(client, code: 1001, reason: "server shutting down", drainRoom: true, deadlineSeconds: graceSeconds)
        }
        if clients.isEmpty {
            loopShouldExit = true
            return
        }
        guard let server = lws else { return }
        shutdownTimer = LwsTimer(server: server, gate: timerGate) { [unowned self] in
            if !self.clients.isEmpty {
                self.logger.info("shutdown grace period over", metadata: ["clients": "\(self.clients.count)"])
            }
            self.loopShouldExit = true
        }
        shutdownTimer?.schedule(afterNanos: UInt64(graceMs) * 1_000_000)
    }
}
