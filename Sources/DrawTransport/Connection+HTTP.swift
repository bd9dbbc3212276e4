import CLwsShim

/// The request headers the server reads through the transport.
package enum RequestHeader {
    case origin
    case webSocketProtocol
    case authorization
    case transferEncoding
    case contentLength
    case contentType
    case ifNoneMatch
    case host

    var token: lws_token_indexes {
        switch self {
        case .origin: WSI_TOKEN_ORIGIN
        case .webSocketProtocol: WSI_TOKEN_PROTOCOL
        case .authorization: WSI_TOKEN_HTTP_AUTHORIZATION
        case .transferEncoding: WSI_TOKEN_HTTP_TRANSFER_ENCODING
        case .contentLength: WSI_TOKEN_HTTP_CONTENT_LENGTH
        case .contentType: WSI_TOKEN_HTTP_CONTENT_TYPE
        case .ifNoneMatch: WSI_TOKEN_HTTP_IF_NONE_MATCH
        case .host: WSI_TOKEN_HOST
        }
    }
}

/// The request side of a connection: what lws parsed, and the answers it writes.
extension Connection {
    /// The request path, as lws decoded it.
    package var uri: String? { Lws.uri(wsi) }

    /// The protocol lws chose for this WebSocket: a subprotocol's name, or `http` when the client
    /// offered none.
    package var protocolName: String { String(cString: ldlws_protocol_name(wsi)) }

    /// One request header, or `nil` when absent.
    package func header(_ name: RequestHeader) -> String? { Lws.header(wsi, name.token) }

    package var method: HTTPMethod { Lws.method(wsi) }

    /// The request's URL arguments (see `Lws.queryArguments`).
    package var queryArguments: [String: String] { Lws.queryArguments(wsi) }

    /// The numeric address of the peer, or `nil` when the socket cannot say.
    package var peerAddress: String? { Lws.peerAddress(wsi) }

    /// Writes a complete HTTP response (headers and body) in one `lws_write`. False: close the
    /// connection. `extraHeader`: one more header; `cache`: this `Cache-Control` value instead
    /// of `no-store`, and complete header lines after it; `headOnly`: every header, no body.
    package func respond(status: Int, contentType: String, body: [UInt8], extraHeader: (name: String, value: String)?,
                         cache: (control: String, lines: String)?, headOnly: Bool, closeAfter: Bool) -> Bool {
        Lws.respond(wsi, status: status, contentType: contentType, body: body, extraHeader: extraHeader, cache: cache,
                    headOnly: headOnly, closeAfter: closeAfter)
    }

    /// Answers a WebSocket handshake with an HTTP error instead of upgrading.
    package func refuseUpgrade(status: Int, contentType: String, body: [UInt8]) -> Bool {
        Lws.refuseUpgrade(wsi, status: status, contentType: contentType, body: body)
    }

    /// Ends the HTTP transaction (keep-alive). False: close the connection.
    package func completeTransaction() -> Bool { ldlws_http_transaction_completed(wsi) == 0 }

    /// Gives the connection `seconds` (0: no limit) from now instead of whatever timeout lws had
    /// armed for it (`Transport.Settings`' handshake timeout): for an answer that comes later.
    package func waitForAnswer(seconds: Int) { ldlws_set_timeout(wsi, Int32(clamping: seconds)) }

    /// How serving a file went.
    package enum FileServing {
        /// lws streams it; HTTP_FILE_COMPLETION ends the transaction.
        case streaming
        /// Already sent whole.
        case done
        case failed
    }

    /// Serves a file with lws' own file server (no body for a HEAD request).
    /// `headers`: complete header lines the server built ("name: value\r\n"…).
    package func serveFile(_ path: String, contentType: String, headers: String, closeAfter: Bool) -> FileServing {
        let n = ldlws_http_serve_file_with(wsi, path, contentType, headers, closeAfter ? UInt32(LDLWS_RESPOND_CLOSE) : 0)
        return n < 0 ? .failed : n > 0 ? .done : .streaming
    }

    /// Answers "304 Not Modified" with these header lines and no body. False: close the connection.
    package func notModified(headers: String, closeAfter: Bool) -> Bool {
        ldlws_http_not_modified(wsi, headers, closeAfter ? UInt32(LDLWS_RESPOND_CLOSE) : 0) == 0
    }
}
