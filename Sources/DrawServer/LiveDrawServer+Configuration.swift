import DrawCore
import DrawPresentation
import DrawTransport
import Foundation

/// The configuration's checks and what `init` derives from it: the transport's settings, the
/// front door's, and the descriptor budget they must fit in. Run during `init` only.
extension LiveDrawServer {
    /// Hard cap on accepted sockets beyond `maxConnections`: those past the soft limit still get
    /// a 503, these are refused before any memory is spent on them (by the front door).
    static let hardConnectionSlack = 64

    static func validate(_ c: ServerConfig) throws(ServerStartError) {
        guard (0...65535).contains(c.port) else { throw .invalidConfig("port \(c.port) is out of range") }
        guard c.maxMessageBytes > 0, c.maxBodyBytes > 0, c.outboundQueueLimit > 0, c.maxConnections > 0,
              c.maxStrikes > 0, c.maxRooms > 0, c.closeHandshakeSeconds > 0, c.roomIdleMs > 0,
              c.roomCreationBurst > 0, c.roomCreationPerMinute > 0, c.roomCreationAddresses > 0,
              c.headTimeoutMs > 0, c.slowHeadAfterMs > 0, c.slowHeadsPerAddress >= 0,
              c.roomExpiryMs.isFinite, c.roomExpiryMs > 0 else {
            throw .invalidConfig("limits must be positive")
        }
        if let key = c.lobbyHostKey, !HostKey.isWellFormed(key) {
            throw .invalidConfig("the lobby host key must be \(HostKey.length) lowercase hex characters")
        }
        switch (c.tlsCertPath, c.tlsKeyPath) {
        case (nil, nil): break
        case (let cert?, let key?):
            for path in [cert, key] where !FileManager.default.isReadableFile(atPath: path) {
                throw .unreadableTLSFile(path)
            }
        default: throw .incompleteTLS
        }
    }

    /// The transport, without a listener: connections come from the front door, bound to
    /// `port` (which the transport only reports).
    static func transportSettings(_ config: ServerConfig, port: Int) -> Transport.Settings {
        var s = Transport.Settings()
        s.port = port
        s.headerDataBytes = config.requestLimits.lwsHeaderTableBytes
        s.headerTables = config.headerTables
        s.tlsCertPath = config.tlsCertPath
        s.tlsKeyPath = config.tlsKeyPath
        s.subprotocol = WireVersion.latest.subprotocol
        s.olderSubprotocol = WireVersion.v1.subprotocol
        s.eventLoop = config.eventLoop
        s.roundTripTimeoutSeconds = config.transportRoundTripSeconds
        // lws' own set says frame-ancestors 'none' for every response; listed origins need ours.
        if !config.frameAncestors.isEmpty { s.securityHeaders = SecurityHeaders.lines(frameAncestors: config.frameAncestors) }
        return s
    }

    /// Our own listening socket (see `FrontDoor`), with the operator's reason when it cannot be.
    static func listen(_ config: ServerConfig) throws(ServerStartError) -> ListenSocket {
        do throws(ListenSocket.OpenError) {
            return try ListenSocket.open(host: config.host, port: config.port)
        } catch {
            switch error {
            case .inUse: throw .portInUse(host: config.host, port: config.port)
            case .unresolvable:
                throw .listenError(host: config.host, port: config.port, reason: "not an IP address or a network interface")
            case .refused(let reason): throw .listenError(host: config.host, port: config.port, reason: reason)
            }
        }
    }

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

    /// Sets the descriptor limit to what `maxConnections` needs, as far as allowed, then lowers
    /// `maxConnections` to what it leaves room for (issue 11, finding 4): the one-line notice says
    /// so, or the start fails when not even one connection fits.
    static func fitToDescriptors(_ config: ServerConfig) throws(ServerStartError) -> (ServerConfig, String?) {
        let limit = DescriptorBudget.fitSoftLimit(
            to: DescriptorBudget.needed(connections: config.maxConnections, slack: hardConnectionSlack))
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
    /// The request limits the front door applies (the body limit is `maxBodyBytes`, and an entrant
    /// list's the reader's).
    var requestLimits: RequestLimits {
        RequestLimits(maxBodyBytes: maxBodyBytes, maxUploadBytes: entrantListReader?.limits.maxBodyBytes ?? maxBodyBytes)
    }
}
