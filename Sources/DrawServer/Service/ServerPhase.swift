import Foundation

/// How far the server's graceful shutdown has come. Written only by `ShutdownCoordinator`, read
/// by every owner that must refuse new work or let the loop end. Service thread only, except
/// `stopAsked`.
final class ServerPhase {
    /// `drain()` or `stop()` was called, on whatever thread, even if the service thread has not
    /// handled it yet: a start that arrives after the signal is refused, though the signal's job
    /// may still wait behind the request in the loop's queue (issue 31: 202 answered right after
    /// SIGTERM, then aborted at the end of the grace period).
    let stopAsked = AskedFlag()

    /// `drain()` was handled: no new draw starts (`draining`, 503), `/healthz` answers 503 so a
    /// load balancer sends no new viewers, and running draws go on until they end or the grace
    /// period is over. Everything else is still served. Stays true through the later phases.
    var draining = false
    /// `stop()` was handled (or draining ended): nothing new is accepted (joins, draws, API requests).
    var shuttingDown = false
    /// Shutdown's second phase: clients are being closed, and the loop ends when the last is gone.
    var closingClients = false

    /// Whether new draws are refused as `draining` (asked, or handled).
    var refusesNewDraws: Bool { draining || stopAsked.isSet }
}

/// A flag any thread may set and read (`ServerPhase.stopAsked`).
final class AskedFlag: @unchecked Sendable {
    // @unchecked Sendable: `set` is guarded by `lock`.
    private let lock = NSLock()
    private var set = false

    func raise() { lock.withLock { set = true } }
    var isSet: Bool { lock.withLock { set } }
}
