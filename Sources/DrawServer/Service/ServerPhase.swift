/// How far the server's graceful shutdown has come. Written only by `ShutdownCoordinator`, read
/// by every owner that must refuse new work or let the loop end. Service thread only.
final class ServerPhase {
    /// `stop()` was handled: nothing new is accepted (joins, draws, API requests).
    var shuttingDown = false
    /// Shutdown's second phase: clients are being closed, and the loop ends when the last is gone.
    var closingClients = false
}
