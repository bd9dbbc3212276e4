import DrawTransport

/// A complete HTTP response: status, content type and body, written in one `lws_write`.
struct HTTPResponse {
    var status: Int
    var contentType: String
    var body: [UInt8]
    /// Close the connection after the response (the request body was not or not fully read, or
    /// the server closes after every response: `ServiceLoop.closesEveryResponse`).
    var closeAfter = false
    /// One more header, e.g. `Retry-After` on a 429, `Allow` on a 405.
    var extraHeader: (name: String, value: String)?
    /// Answering a HEAD request: every header, no body.
    var headOnly = false
    /// Cacheable: this `Cache-Control` value instead of `no-store`, and complete header lines
    /// (`"name: value\r\n"`…, e.g. the `ETag`) after it. `nil`: an API answer, never cached.
    var cache: (control: String, lines: String)?

    static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: body)
    }
}

/// One HTTP request in progress on a connection. Touched only on the service thread.
///
/// Ownership: like `ClientConnection`, lws' per-session slot holds a +1 reference from
/// `LWS_CALLBACK_HTTP` until `LWS_CALLBACK_CLOSED_HTTP` / `HTTP_DROP_PROTOCOL` /
/// `WSI_DESTROY` (whichever comes first), or until the next request on the same keep-alive
/// connection replaces it.
final class HTTPExchange {
    let route: HTTPRoute
    /// The bearer token, read while the headers are certainly still attached.
    let bearer: String?
    private(set) var body: [UInt8] = []
    let maxBody: Int
    /// A HEAD request: answered like GET, without the body.
    var headOnly = false
    /// The method as the API routes it (HEAD is GET); tells a PUT's body from a POST's.
    var method: HTTPMethod = .get
    /// Close the connection after the response, whenever it comes (a POST whose body was not read).
    var closeAfter = false
    /// Set once; written on the next HTTP_WRITEABLE.
    private(set) var response: HTTPResponse?
    private(set) var responseSent = false

    init(route: HTTPRoute, bearer: String?, maxBody: Int) {
        self.route = route
        self.bearer = bearer
        self.maxBody = maxBody
    }

    /// Appends a body chunk; false when the body went over the limit (nothing more is kept).
    func appendBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= maxBody else { return false }
        body.append(contentsOf: chunk)
        return true
    }

    /// Takes `bytes` as the whole body, without copying them (the front door's buffer, handed
    /// over); false when over the limit (nothing is kept).
    func setBody(_ bytes: consuming [UInt8]) -> Bool {
        guard bytes.count <= maxBody else { return false }
        body = bytes
        return true
    }

    /// The body, once: the exchange no longer holds it (an upload's parse frees it when done).
    func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
    }

    /// Records the response; only the first one counts.
    func setResponse(_ r: HTTPResponse) {
        guard response == nil else { return }
        response = r
    }

    /// Hands the response over for writing, once.
    func takeResponse() -> HTTPResponse? {
        guard !responseSent, let response else { return nil }
        responseSent = true
        return response
    }
}
