import DrawTransport
import Glibc

/// Connection accounting and the hand-over from the front door to lws. Service thread only.
extension ServiceLoop {
    /// lws made a connection (`.created`): count it.
    func opened(_ c: Connection) {
        openConnections.insert(c)
        metrics.connections.record(openConnections.count)
        frontDoor?.lwsCreated(c)
    }

    /// Whether every plain HTTP response ends its connection. So it does whenever the front door
    /// reads the heads: a second request on the same connection would reach lws' parser directly.
    /// Browsers and clients simply open a new connection (each answer says `Connection: close`).
    /// Under TLS lws reads every head anyway, and keep-alive stays.
    var closesEveryResponse: Bool { frontDoor?.settings.readsHeads ?? false }
}

/// The front door's view of the loop: what lws holds, and the hand-over itself.
extension ServiceLoop: FrontDoorHost {
    var lwsConnectionCount: Int { openConnections.count }
    var isShuttingDown: Bool { phase.shuttingDown }

    func adopt(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        guard isRunning else {
            Glibc.close(fd)
            return false
        }
        // nil: lws closed it already (or could not take it); the descriptor is gone either way.
        return transport.adoptSocket(fd, bytes) != nil
    }

    /// Takes a connection out of the count (lws freed it, with or without telling).
    func forget(_ c: Connection) {
        if openConnections.remove(c) != nil { metrics.connections.record(openConnections.count) }
    }
}
