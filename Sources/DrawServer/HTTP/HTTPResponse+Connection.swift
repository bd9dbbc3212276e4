import DrawTransport

/// Writing an `HTTPResponse` on a connection: the server's value, spelled out for the transport.
extension Connection {
    /// Writes a complete HTTP response in one write. False: close the connection.
    func respond(_ response: HTTPResponse) -> Bool {
        respond(status: response.status, contentType: response.contentType, body: response.body,
                extraHeader: response.extraHeader, cache: response.cache, headOnly: response.headOnly,
                closeAfter: response.closeAfter)
    }

    /// Answers a WebSocket handshake with an HTTP error instead of upgrading.
    func refuseUpgrade(_ response: HTTPResponse) -> Bool {
        refuseUpgrade(status: response.status, contentType: response.contentType, body: response.body)
    }
}
