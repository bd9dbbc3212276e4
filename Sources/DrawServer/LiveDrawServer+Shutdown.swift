/// Graceful shutdown. Service thread only (reached through `stop()` → inbox → here).
///
/// Two phases, each bounded by `shutdownGraceMs`:
/// 1. Records: running draws are aborted (`aborted` broadcast, seed revealed) and their
///    `finish(.aborted(server_shutdown))` queued; then the server waits for the storage queue to
///    drain (a barrier job). Meanwhile a result already being written is still announced, and
///    nothing new is accepted. Skipped without a store.
/// 2. Clients: every client is closed with 1001 after it got what it is owed; the loop ends when
///    they are gone. `run()` then closes the store.
extension LiveDrawServer {
    func beginShutdown() {
        guard !shuttingDown, !destroying else { return }
        logger.info("shutting down", metadata: ["clients": "\(clients.count)", "rooms": "\(rooms.count)"])
        // Aborts first: they are room broadcasts, so every client drains them before its close.
        for room in rooms.all { room.runner?.shutdown() }
        shuttingDown = true
        guard let server = lws else { return }
        shutdownTimer = LwsTimer(server: server, gate: timerGate) { [unowned self] in self.shutdownTimerFired() }
        if awaitStorageDrain() {
            awaitingStorageDrain = true
            shutdownTimer?.schedule(afterNanos: graceNanos)
        } else {
            closeClientsForShutdown()
        }
    }

    /// The barrier came back: every record queued before shutdown is written (or failed).
    func storageDrained() {
        guard awaitingStorageDrain else { return }
        awaitingStorageDrain = false
        closeClientsForShutdown()
    }

    private var graceNanos: UInt64 { UInt64(max(0, config.shutdownGraceMs)) * 1_000_000 }

    private func closeClientsForShutdown() {
        let graceSeconds = Int32(clamping: max(1, (max(0, config.shutdownGraceMs) + 999) / 1000))
        for client in Array(clients.values) {
            close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: true, deadlineSeconds: graceSeconds)
        }
        if clients.isEmpty {
            loopShouldExit = true
            return
        }
        shutdownTimer?.schedule(afterNanos: graceNanos)
    }

    /// One timer for both phases (a timer must not replace itself from its own callback).
    private func shutdownTimerFired() {
        if awaitingStorageDrain {
            awaitingStorageDrain = false
            logger.warning("the draw store did not finish its writes within the shutdown grace period",
                           metadata: ["queued": "\(storage?.pending ?? 0)"])
            closeClientsForShutdown()
            return
        }
        if !clients.isEmpty {
            logger.info("shutdown grace period over", metadata: ["clients": "\(clients.count)"])
        }
        loopShouldExit = true
    }
}
