import CLwsShim

/// Swift-side helpers over the `ldlws_` shim, so the rest of the server never handles C strings
/// or buffers. Every function here must run on the service thread (see `LiveDrawServer`).
@usableFromInline enum Lws {
    /// Bytes of headroom lws needs before a payload (`LWS_PRE`).
    @usableFromInline static let pre: Int = ldlws_pre()
    /// The most bytes lws hands to one `send()`: a whole message in one system call, except the
    /// largest `started`/`finished`/snapshot messages of very big draws (lws sends the rest
    /// when the socket is writeable again). Independent of the receive buffer on purpose.
    @usableFromInline static let sendChunkBytes = 64 * 1024

    /// The request path, as lws decoded it.
    static func uri(_ wsi: OpaquePointer) -> String? {
        withBuffer(2048) { ldlws_uri(wsi, $0, $1) }
    }

    /// One request header, or `nil` when absent (or longer than `limit`).
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes, limit: Int = 4096) -> String? {
        withBuffer(limit) { ldlws_header(wsi, token, $0, $1) }
    }

    /// Most URL arguments read from one request.
    static let maxQueryArguments = 16

    /// The request's URL arguments (`?limit=5&cursor=9`), urldecoded by lws. A name that appears
    /// twice keeps its first value; an argument without `=` has the value `""`.
    static func queryArguments(_ wsi: OpaquePointer) -> [String: String] {
        // Every single argument fits in the length of all of them together.
        let total = Int(ldlws_header_length(wsi, WSI_TOKEN_HTTP_URI_ARGS))
        guard total > 0 else { return [:] }
        var arguments: [String: String] = [:]
        var buf = [CChar](repeating: 0, count: total + 1)
        for index in 0..<maxQueryArguments {
            let n = buf.withUnsafeMutableBufferPointer { ldlws_uri_arg(wsi, Int32(index), $0.baseAddress!, Int32($0.count)) }
            guard n >= 0 else { break }
            let text = buf.withUnsafeBufferPointer { p in
                String(decoding: UnsafeRawBufferPointer(start: p.baseAddress, count: Int(n)), as: UTF8.self)
            }
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : ""
            if arguments[name] == nil { arguments[name] = value }
        }
        return arguments
    }

    static func method(_ wsi: OpaquePointer) -> HTTPMethod {
        switch ldlws_http_method(wsi) {
        case LDLWS_METHOD_GET: return .get
        case LDLWS_METHOD_POST: return .post
        case LDLWS_METHOD_PUT: return .put
        case LDLWS_METHOD_PATCH: return .patch
        case LDLWS_METHOD_DELETE: return .delete
        case LDLWS_METHOD_OPTIONS: return .options
        case LDLWS_METHOD_HEAD: return .head
        default: return .other
        }
    }

    /// Writes a complete HTTP response (headers and body) in one `lws_write`.
    /// Returns false when the connection should be closed.
    static func respond(_ wsi: OpaquePointer, status: Int, contentType: String, body: [UInt8],
                        extraHeader: (name: String, value: String)?, cache: (control: String, lines: String)?,
                        headOnly: Bool, closeAfter: Bool) -> Bool {
        var flags: UInt32 = 0
        if headOnly { flags |= UInt32(LDLWS_RESPOND_HEAD_ONLY) }
        if closeAfter { flags |= UInt32(LDLWS_RESPOND_CLOSE) }
        if let cache {
            return body.withUnsafeBufferPointer { body in
                ldlws_http_respond_cacheable(wsi, UInt32(status), contentType, cache.control,
                                             cache.lines, body.baseAddress, body.count, flags) == 0
            }
        }
        return body.withUnsafeBufferPointer { body in
            withOptionalCString(extraHeader?.name) { name in
                withOptionalCString(extraHeader?.value) { value in
                    ldlws_http_respond_with(wsi, UInt32(status), contentType,
                                            name, value, body.baseAddress, body.count, flags) == 0
                }
            }
        }
    }

    /// Answers a WebSocket handshake with an HTTP error instead of upgrading.
    static func refuseUpgrade(_ wsi: OpaquePointer, status: Int, contentType: String, body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { body in
            ldlws_http_refuse_upgrade(wsi, UInt32(status), contentType, body.baseAddress, body.count) == 0
        }
    }

    private static func withBuffer(_ size: Int, _ fill: (UnsafeMutablePointer<CChar>, Int32) -> Int32) -> String? {
        var buf = [CChar](repeating: 0, count: size)
        let n = buf.withUnsafeMutableBufferPointer { fill($0.baseAddress!, Int32(size)) }
        guard n >= 0 else { return nil }
        return buf.withUnsafeBufferPointer { p in
            String(decoding: UnsafeRawBufferPointer(start: p.baseAddress, count: Int(n)), as: UTF8.self)
        }
    }
}
