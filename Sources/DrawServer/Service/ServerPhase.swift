/// How far the server's graceful shutdown has come. Written only by `ShutdownCoordinator`, read
/// by every owner that must refuse new work or let the loop end. Service thread only.
final class ServerPhase {
    /// `drain()` was handled: no new draw starts (`draining`, 503), `/healthz` answers 503 so a
    /// load balancer sends no new viewers, and running draws go on until they end or the grace
    /// period is over. Everything else is still served. Stays true through the later phases.
    var draining = false
    /// `stop()` was handled (or draining ended): nothing new is accepted (joins, draws, API requests).
    var shuttingDown = false
    /// Shutdown's second phase: clients are being closed, and the loop ends when the last is gone.
    var closingClients = false
}
