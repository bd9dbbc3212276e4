import CLwsShim
import Glibc

/// The server's side of the front door: the hand-over to lws, the limits it enforces, and the
/// descriptor budget they must fit in. Service thread only, except `fitToDescriptors` (init).
extension LiveDrawServer: FrontDoorHost {
    var lwsConnectionCount: Int { openConnections.count }
    var isShuttingDown: Bool { shuttingDown }

    func adopt(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        guard let lws else {
            Glibc.close(fd)
            return false
        }
        // NULL: lws closed it already (or could not take it); the descriptor is gone either way.
        return bytes.withUnsafeBufferPointer { ldlws_adopt_socket(lws, fd, $0.baseAddress, $0.count) } != nil
    }

    func forget(_ wsi: OpaquePointer) {
        if openConnections.remove(wsi) != nil { metrics.connections.record(openConnections.count) }
    }

    /// Whether every plain HTTP response ends its connection. So it does whenever the front door
    /// reads the heads: a second request on the same connection would reach lws' parser directly.
    /// Browsers and clients simply open a new connection (each answer says `Connection: close`).
    /// Under TLS lws reads every head anyway, and keep-alive stays.
    var closesEveryResponse: Bool { frontDoor?.settings.readsHeads ?? false }

    static func frontDoorSettings(_ config: ServerConfig) -> FrontDoor.Settings {
        var s = FrontDoor.Settings()
        s.limits = config.requestLimits
        s.headTimeoutNanos = UInt64(config.headTimeoutMs) * 1_000_000
        s.slowAfterNanos = UInt64(config.slowHeadAfterMs) * 1_000_000
        s.slowPerAddress = config.slowHeadsPerAddress
        s.headerTables = max(1, config.headerTables)
        s.maxConnections = config.maxConnections
        s.hardSlack = hardConnectionSlack
        s.readsHeads = config.tlsCertPath == nil
        return s
    }

    /// Raises the descriptor limit as far as allowed, then lowers `maxConnections` to what it
    /// leaves room for (issue 11, finding 4): the one-line notice says so, or the start fails
    /// when not even one connection fits.
    static func fitToDescriptors(_ config: ServerConfig) throws(ServerStartError) -> (ServerConfig, String?) {
        let limit = DescriptorBudget.raiseSoftLimit()
        let room = DescriptorBudget.connections(forLimit: limit, slack: hardConnectionSlack)
        guard room >= 1 else {
            throw .tooFewDescriptors(limit: limit, needed: DescriptorBudget.reserve + hardConnectionSlack)
        }
        guard config.maxConnections > room else { return (config, nil) }
        var fitted = config
        fitted.maxConnections = room
        let notice = "max connections lowered from \(config.maxConnections) to \(room) (--max-connections): "
            + "the process may open \(limit) file descriptors (ulimit -n) and keeps "
            + "\(DescriptorBudget.reserve + hardConnectionSlack) for files, list fetches, the database and 503 answers"
        return (fitted, notice)
    }
}

extension ServerConfig {
    /// The request limits the front door applies (the body limit is `maxBodyBytes`).
    var requestLimits: RequestLimits { RequestLimits(maxBodyBytes: maxBodyBytes) }
}
