import DrawPresentation
import DrawTransport

extension WebSocketInbound {
    /// HTTP_CONFIRM_UPGRADE: the last moment to refuse with an HTTP status (headers are still
    /// attached). Allows, refuses after writing a refusal, or hangs up.
    ///
    /// The refusal is written directly here — not in a WRITEABLE — as lws' own status
    /// responses are: lws expects the response to be complete when we return.
    func confirmUpgrade(_ connection: Connection, upgrade: String) -> TransportReply {
        guard upgrade.lowercased() == "websocket" else { return .hangUp } // h2c and friends: no
        func refuse(_ code: ClientErrorCode, _ message: String? = nil) -> TransportReply {
            connection.refuseUpgrade(.json(code.httpStatus, APIMessages.error(code, message: message))) ? .refused : .hangUp
        }
        if phase.shuttingDown { return refuse(.shuttingDown) }
        if loop.openConnections.count > config.maxConnections { return refuse(.tooManyConnections) }
        guard let path = connection.uri, path.hasPrefix("/ws/") else { return refuse(.notFound) }
        if !config.allowedOrigins.isEmpty, let origin = connection.header(.origin),
           !config.allowedOrigins.contains(origin) {
            return refuse(.forbidden, "This origin may not open WebSockets on this server.")
        }
        // lws would hang up without a word on a handshake whose offered subprotocols are all
        // unknown; say why instead. No offer at all is fine (v1).
        let known = Set(WireVersion.allCases.map(\.subprotocol))
        if let offered = connection.header(.webSocketProtocol),
           !offered.split(separator: ",").contains(where: { known.contains(String($0).trimmingBlanks()) }) {
            return refuse(.unsupportedSubprotocol)
        }
        return .proceed
    }
}
