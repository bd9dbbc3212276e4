/// A request head the front door read and checked (RFC 9112): what it decides on, and what it
/// rebuilds for lws.
struct RequestHead: Equatable {
    /// One header field line: the name as sent (a token, so ASCII) and the value without the
    /// blanks around it, byte for byte (obs-text included).
    struct Field: Equatable {
        var name: String
        var value: [UInt8]
    }

    /// The method token, case-sensitive (`get` is not `GET`).
    var method: String
    /// The request target as sent (only visible ASCII, so a `String` holds it exactly).
    var target: String
    /// 0 for HTTP/1.0; 1 for HTTP/1.1 (and later 1.x, which are read as 1.1).
    var minorVersion: Int
    var fields: [Field]
    /// The body length announced by `Content-Length`; `nil` without one.
    var contentLength: Int?
    /// Path and query in origin form (`/a?b`): the target itself, or the part of an
    /// absolute-form target (`http://host/a?b`) after its authority. `nil` for the authority
    /// form of CONNECT and the asterisk form of `OPTIONS *`.
    var originForm: String?

    /// The path of `originForm` (without the query), not percent-decoded.
    var path: String? {
        guard let originForm else { return nil }
        return originForm.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    /// Every value of the fields named `name` (ASCII case-insensitive), in order.
    func values(of name: String) -> [[UInt8]] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a comma-separated field (`Connection`, `Upgrade`) lists `token`, in any case.
    func lists(_ token: String, in name: String) -> Bool {
        values(of: name).contains { value in
            value.split(separator: UInt8(ascii: ",")).contains { element in
                Self.sameName(String(decoding: element, as: UTF8.self).trimmingBlanks(), token)
            }
        }
    }

    /// A WebSocket handshake (`GET` with `Upgrade: websocket`): handed to lws with its headers
    /// unchanged. Any other method is no handshake (RFC 6455 §4.1: "The method of the request
    /// MUST be GET"): its `Upgrade` is dropped like every other hop field and the request is
    /// answered as plain HTTP (`POST /ws/lobby`: 405, `Allow: GET, HEAD`), never with a 101.
    var isWebSocketUpgrade: Bool { method == "GET" && lists("websocket", in: "upgrade") }

    /// Whether the bytes of a request (complete or not, well-formed or not) begin with a `HEAD`
    /// request line, leading empty lines skipped as `HeadScanner` skips them: the front door's own
    /// answer to it then has no body (RFC 9110 §9.3.2), whatever was wrong with the rest.
    static func announcesHEAD(_ buffer: [UInt8]) -> Bool {
        let start = buffer.firstIndex { $0 != 0x0D && $0 != 0x0A } ?? buffer.endIndex
        return buffer[start...].starts(with: "HEAD ".utf8)
    }

    static func sameName(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
}
