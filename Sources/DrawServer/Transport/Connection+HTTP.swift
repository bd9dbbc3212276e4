import CLwsShim

/// The request headers the server reads through lws.
enum RequestHeader {
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
    var uri: String? { Lws.uri(wsi) }

    /// The protocol lws chose for this WebSocket: a subprotocol's name, or `http` when the client
    /// offered none.
    var protocolName: String { String(cString: ldlws_protocol_name(wsi)) }

    /// One request header, or `nil` when absent.
    func header(_ name: RequestHeader) -> String? { Lws.header(wsi, name.token) }

    var method: HTTPMethod { Lws.method(wsi) }

    /// The request's URL arguments (see `Lws.queryArguments`).
    var queryArguments: [String: String] { Lws.queryArguments(wsi) }

    /// The numeric address of the peer, or `nil` when the socket cannot say.
    var peerAddress: String? { Lws.peerAddress(wsi) }

    /// Writes a complete HTTP response in one `lws_write`. False: close the connection.
    func respond(_ response: HTTPResponse) -> Bool { Lws.respond(wsi, response) }

    /// Answers a WebSocket handshake with an HTTP error instead of upgrading.
    func refuseUpgrade(_ response: HTTPResponse) -> Bool { Lws.refuseUpgrade(wsi, response) }

    /// Ends the HTTP transaction (keep-alive). False: close the connection.
    func completeTransaction() -> Bool { ldlws_http_transaction_completed(wsi) == 0 }

    /// How serving a file went.
    enum FileServing {
        /// lws streams it; HTTP_FILE_COMPLETION ends the transaction.
        case streaming
        /// Already sent whole.
        case done
        case failed
    }

    /// Serves a file with lws' own file server (no body for a HEAD request).
    /// `headers`: complete header lines the server built ("name: value\r\n"…).
    func serveFile(_ path: String, contentType: String, headers: String, closeAfter: Bool) -> FileServing {
        let n = ldlws_http_serve_file_with(wsi, path, contentType, headers, closeAfter ? UInt32(LDLWS_RESPOND_CLOSE) : 0)
        return n < 0 ? .failed : n > 0 ? .done : .streaming
    }

    /// Answers "304 Not Modified" with these header lines and no body. False: close the connection.
    func notModified(headers: String, closeAfter: Bool) -> Bool {
        ldlws_http_not_modified(wsi, headers, closeAfter ? UInt32(LDLWS_RESPOND_CLOSE) : 0) == 0
    }
}
