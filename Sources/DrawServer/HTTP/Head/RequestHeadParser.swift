/// A strict HTTP/1.1 request-head parser (RFC 9112 §2–§5), pure Swift, for the front door.
///
/// Strict on purpose: the front door rebuilds what it accepted for lws, and anything two parsers
/// could read differently is refused here with a 400 instead of being passed on. Line ends are
/// CRLF; the request line is exactly `method SP target SP HTTP/1.x`; field names are tokens with
/// no blank before the colon; values hold no control bytes; no line folding; one `Host` (required
/// in HTTP/1.1); no `Transfer-Encoding`; `Content-Length` checked by `ContentLength`.
enum RequestHeadParser {
    /// Parses a complete head: `head` runs from the request line through the empty line
    /// (`HeadScanner`'s `complete(start:end:)`).
    static func parse(_ head: ArraySlice<UInt8>, limits: RequestLimits) -> Result<RequestHead, HeadRejection> {
        let lines = splitLines(head)
        guard let requestLine = lines.first, !requestLine.isEmpty else { return .failure(.malformed("no request line")) }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .failure(.malformed("the request line must be: method, target, version"))
        }
        guard parts[0].allSatisfy(isTokenByte) else { return .failure(.malformed("bad method")) }
        let minor: Int
        switch version(parts[2]) {
        case .success(let m): minor = m
        case .failure(let why): return .failure(why)
        }
        let target = parts[1]
        guard target.count <= limits.maxTargetBytes else { return .failure(.targetTooLong) }
        guard target.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return .failure(.malformed("bad request target")) }
        let method = String(decoding: parts[0], as: UTF8.self)
        let targetText = String(decoding: target, as: UTF8.self)
        let origin: String?
        switch RequestTarget.originForm(of: targetText, limits: limits) {
        case .success(let o): origin = o
        case .failure(let why): return .failure(why)
        }

        var fields: [RequestHead.Field] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard fields.count < limits.maxHeaderFields else { return .failure(.headersTooLarge) }
            switch field(line) {
            case .success(let f): fields.append(f)
            case .failure(let why): return .failure(why)
            }
        }
        var head = RequestHead(method: method, target: targetText, minorVersion: minor, fields: fields,
                               contentLength: nil, originForm: origin)
        let hosts = head.values(of: "host")
        guard hosts.count <= 1, minor == 0 || hosts.count == 1 else {
            return .failure(.malformed("an HTTP/1.1 request needs exactly one Host header"))
        }
        if let host = hosts.first, host.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: ",") }) {
            return .failure(.malformed("bad Host header"))
        }
        guard head.values(of: "transfer-encoding").isEmpty else { return .failure(.transferEncoding) }
        let maxBody = limits.maxBodyBytes(method: method, path: head.path)
        switch ContentLength.parse(head.values(of: "content-length"), max: maxBody) {
        case .success(let n): head.contentLength = n
        case .failure(.bodyTooLarge) where maxBody > limits.maxBodyBytes:
            return .failure(.uploadTooLarge(limitBytes: maxBody))
        case .failure(let why): return .failure(why)
        }
        return .success(head)
    }

    /// The head's lines without their CRLF (the last, empty line included). A CR anywhere but
    /// before LF, or an LF without CR, is left inside a line, where the checks refuse it.
    static func splitLines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = head.startIndex
        var i = head.startIndex
        while i < head.endIndex {
            if head[i] == 0x0A, i > start, head[i - 1] == 0x0D {
                lines.append(head[start..<(i - 1)])
                start = i + 1
            }
            i += 1
        }
        if start < head.endIndex { lines.append(head[start...]) }
        return lines
    }

    /// `HTTP/1.x` → x; other major versions are not supported; anything else is malformed.
    static func version(_ v: ArraySlice<UInt8>) -> Result<Int, HeadRejection> {
        let b = Array(v)
        guard b.count == 8, b[0...4] == Array("HTTP/".utf8)[...], isDigit(b[5]), b[6] == UInt8(ascii: "."), isDigit(b[7]) else {
            return .failure(.malformed("bad HTTP version"))
        }
        guard b[5] == UInt8(ascii: "1") else { return .failure(.versionNotSupported) }
        return .success(b[7] == UInt8(ascii: "0") ? 0 : 1)
    }

    /// One field line: `name ":" OWS value OWS`.
    static func field(_ line: ArraySlice<UInt8>) -> Result<RequestHead.Field, HeadRejection> {
        guard let first = line.first, first != 0x20, first != 0x09 else {
            return .failure(.malformed("folded header lines are not accepted"))
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return .failure(.malformed("header line without a colon")) }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { return .failure(.malformed("bad header name")) }
        var value = line[(colon + 1)...]
        while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
        while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
        guard value.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else {
            return .failure(.malformed("control character in a header value"))
        }
        return .success(RequestHead.Field(name: String(decoding: name, as: UTF8.self), value: Array(value)))
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x30...0x39: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(c)
        }
    }

    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
}
