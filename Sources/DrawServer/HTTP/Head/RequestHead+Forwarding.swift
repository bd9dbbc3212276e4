/// What the front door does with a well-formed head, and the head lws then gets.
extension RequestHead {
    /// The methods lws is handed; every other one is answered by the front door.
    static let forwardedMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE"]

    /// The methods whose body the front door reads and hands over beside the head.
    static let bodyMethods: Set<String> = ["POST", "PUT"]

    /// `nil`: hand the request to lws. Otherwise the answer the front door gives itself: 405 with
    /// `Allow` for a method the path does not take (OPTIONS, TRACE, CONNECT, PUT, FOO, …), 404 on
    /// a path that does not exist. GET, HEAD, POST and DELETE go to lws even where the path does not take
    /// them, so the API's own routing answers them (405 with `Allow` as well).
    var refusal: HeadRejection? {
        guard Self.forwardedMethods.contains(method) else {
            guard let path else { return .methodNotAllowed(allow: HTTPRoute.serverAllow) }
            guard let allow = HTTPRoute.match(path).allowHeader else { return .notFound }
            return .methodNotAllowed(allow: allow)
        }
        return originForm == nil ? .malformed("the request target must be a path") : nil
    }

    /// Fields that describe this hop's connection rather than the request: lws never sees them
    /// on a plain request, so `Upgrade: h2c` (what `curl --http2` sends) is served as HTTP/1.1
    /// instead of being refused, and `Connection: close` below is the only say on reuse.
    private static let hopFields = ["connection", "upgrade", "http2-settings", "keep-alive", "proxy-connection"]

    /// The head as lws gets it, rebuilt from what was checked so both parsers read the same thing:
    /// origin-form target; no `Expect` (the front door answered it). A WebSocket handshake keeps
    /// its other fields as they came. Every other request loses its hop-by-hop fields and says
    /// `Connection: close`: lws then closes the connection after its response, so the next
    /// request comes through the front door again instead of straight to lws' parser (which the
    /// front door exists to keep heads away from).
    ///
    /// No body ever goes to lws: a POST says `Content-Length: 0` and its body travels beside the
    /// connection (`FrontDoor.takeBody`). lws 4.1.6 cannot take a body in the bytes of an adopted
    /// socket: `lws_http_action` reads the adoption buffer again from its start as the body,
    /// while the head is still being parsed from it, and then loops for ever on what is left
    /// (reproduced: the service thread spins at 100%). An explicit 0 also keeps lws from
    /// expecting its default 100 MB body from a POST without `Content-Length`.
    func forwardedHead() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        // lws 4.1.6 parses a PUT but then closes the connection without a word when we answer it
        // (reproduced: an empty reply, with or without a body); as a POST it is served, and the
        // front door tells the API it was a PUT (`FrontDoor.takeWasPut`).
        out += Array((method == "PUT" ? "POST" : method).utf8) + [0x20] + Array(Self.keepingSegments(originForm ?? "/").utf8)
        out += Array(" HTTP/1.\(minorVersion == 0 ? 0 : 1)\r\n".utf8)
        let webSocket = isWebSocketUpgrade
        for f in fields {
            if Self.sameName(f.name, "content-length") || Self.sameName(f.name, "expect") { continue }
            if !webSocket, Self.hopFields.contains(where: { Self.sameName(f.name, $0) }) { continue }
            out += Array(f.name.utf8) + Array(": ".utf8) + f.value + [0x0D, 0x0A]
        }
        if Self.bodyMethods.contains(method) || method == "DELETE" { out += Array("Content-Length: 0\r\n".utf8) }
        if !webSocket { out += Array("Connection: close\r\n".utf8) }
        out += [0x0D, 0x0A]
        return out
    }

    /// `origin` with each API path segment lws would merge or drop replaced by `%25`.
    ///
    /// lws percent-decodes the path and then collapses empty, `.` and `..` segments, so
    /// `/api/rooms/%2F` (or `/api/rooms/.`) reached the API as `/api/rooms/`, the room list, and a
    /// GET of it was answered `405`; `/api/rooms/./draws` became `/api/rooms/draws`, another room.
    /// A segment that is empty (but the last: `/api/rooms/` stays the list), `.`, `..` or holds an
    /// escaped `/` or `\` goes to lws as `%25` ("%"): a name no room or draw has, on the route the
    /// client named, so it is answered like every other invalid name (`404 unknown_room`,
    /// `unknown_draw`). Only `/api/` paths: static files and WebSocket rooms keep lws' reading.
    static func keepingSegments(_ origin: String) -> String {
        let query = origin.firstIndex(of: "?")
        let path = origin[..<(query ?? origin.endIndex)]
        guard path.hasPrefix("/api/") else { return origin }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for i in segments.indices.dropFirst() {
            let decoded = percentDecoded(segments[i])
            let mergedByLws = decoded.isEmpty ? i != segments.count - 1
                : decoded == [0x2E] || decoded == [0x2E, 0x2E] || decoded.contains(0x2F) || decoded.contains(0x5C)
            if mergedByLws { segments[i] = "%25" }
        }
        return segments.joined(separator: "/") + (query.map { String(origin[$0...]) } ?? "")
    }

    /// The bytes `%XX` escapes stand for (the parser already refused malformed escapes).
    private static func percentDecoded(_ segment: String) -> [UInt8] {
        let bytes = Array(segment.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let byte = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16) {
                out.append(byte)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    /// The body bytes of `buffer`, which holds this head from `headEnd` on.
    func body(in buffer: [UInt8], headEnd: Int) -> [UInt8] {
        let length = contentLength ?? 0
        return Array(buffer[headEnd..<(headEnd + length)])
    }

    /// `Expect: 100-continue`: the client waits for an interim 100 before it sends the body.
    var expectsContinue: Bool { lists("100-continue", in: "expect") }
}
