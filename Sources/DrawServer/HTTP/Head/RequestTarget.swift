/// The request target's four forms (RFC 9112 §3.2), reduced to the origin form lws expects.
enum RequestTarget {
    /// `/path?query` for an origin- or absolute-form target, `nil` for the authority form
    /// (`host:port`, CONNECT) and the asterisk form (`*`, `OPTIONS *`). Checks what lws would
    /// refuse with an HTML 403 or a silent close: percent escapes that are not two hex digits,
    /// an escaped NUL, and more query parameters than `limits.maxQueryParameters`.
    static func originForm(of target: String, limits: RequestLimits) -> Result<String?, HeadRejection> {
        if target == "*" { return .success(nil) }
        var origin = target
        if !target.hasPrefix("/") {
            guard let rest = afterScheme(target) else {
                // No scheme and no leading slash: the authority form, valid only for CONNECT.
                return target.contains("/") ? .failure(.malformed("bad request target")) : .success(nil)
            }
            let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" }
            origin = pathStart.map { rest[$0] == "?" ? "/" + rest[$0...] : String(rest[$0...]) } ?? "/"
            // The authority goes nowhere (lws routes by path); Host stays as the client sent it.
        }
        let bytes = Array(origin.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let hi = hex(bytes[i + 1]), let lo = hex(bytes[i + 2]) else {
                    return .failure(.malformed("bad percent-escape in the request target"))
                }
                if hi == 0, lo == 0 { return .failure(.malformed("NUL in the request target")) }
                i += 3
            } else {
                i += 1
            }
        }
        if let q = bytes.firstIndex(of: UInt8(ascii: "?")) {
            // lws starts a new slot at every '&' and ';' of the query.
            let separators = bytes[(q + 1)...].reduce(0) { $0 + ($1 == UInt8(ascii: "&") || $1 == UInt8(ascii: ";") ? 1 : 0) }
            if separators + 1 > limits.maxQueryParameters { return .failure(.targetTooLong) }
        }
        return .success(origin)
    }

    /// What follows `http://` or `https://` (any case), or `nil`.
    private static func afterScheme(_ t: String) -> Substring? {
        for scheme in ["http://", "https://"] where t.count > scheme.count && t.prefix(scheme.count).lowercased() == scheme {
            return t.dropFirst(scheme.count)
        }
        return nil
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
