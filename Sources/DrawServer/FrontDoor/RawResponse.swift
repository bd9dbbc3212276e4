import DrawPresentation

/// The front door's own answers, written straight to the socket (lws never sees these
/// connections): a JSON error body as the API writes it, the security headers lws adds to its
/// responses (docs/PROTOCOL.md §5), `Allow` when there is one, and `Connection: close`.
enum RawResponse {
    static func error(_ code: ClientErrorCode, message: String? = nil, allow: String? = nil,
                      retryAfter: Int? = nil, headOnly: Bool = false) -> [UInt8] {
        let body = APIMessages.error(code, message: message)
        var head = "HTTP/1.1 \(code.httpStatus) \(reason(code.httpStatus))\r\n"
        head += securityHeaders + "server: live-draw\r\n"
        head += "content-type: application/json\r\ncontent-length: \(body.count)\r\ncache-control: no-store\r\n"
        if let allow { head += "allow: \(allow)\r\n" }
        if let retryAfter { head += "retry-after: \(retryAfter)\r\n" }
        head += "connection: close\r\n\r\n"
        return Array(head.utf8) + (headOnly ? [] : body)
    }

    /// The interim answer to `Expect: 100-continue`.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The same set lws adds with LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE.
    /// (Error answers are never framed, so they keep it whatever `--frame-ancestors` says.)
    static let securityHeaders = SecurityHeaders.lwsDefault

    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }
}
