/// The security headers of every response: libwebsockets' "best practices" set by default
/// (docs/PROTOCOL.md §5), or, when the operator lists origins that may frame the page (a stream
/// overlay inside another site, `--frame-ancestors`), the same set with those origins in the
/// CSP's `frame-ancestors` and no `X-Frame-Options` (it can only say deny or same-origin, and
/// browsers ignore it when the CSP has `frame-ancestors`).
enum SecurityHeaders {
    /// Header lines for `frameAncestors` (origins, already checked); `'none'` when empty.
    static func lines(frameAncestors: [String]) -> String {
        let ancestors = frameAncestors.isEmpty ? "'none'" : frameAncestors.joined(separator: " ")
        return "content-security-policy: default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; "
            + "style-src 'self'; connect-src 'self' ws: wss:; frame-ancestors \(ancestors); base-uri 'none';form-action 'self';\r\n"
            + "x-content-type-options: nosniff\r\nx-xss-protection: 1; mode=block\r\n"
            + (frameAncestors.isEmpty ? "x-frame-options: deny\r\n" : "")
            + "referrer-policy: no-referrer\r\n"
    }

    /// What lws adds with LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE.
    static let lwsDefault = lines(frameAncestors: [])
}
