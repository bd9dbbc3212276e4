@testable import DrawServer
import Testing

@Suite struct RequestHeadParserTests {
    static let limits = RequestLimits()

    private func parse(_ text: String) -> Result<RequestHead, HeadRejection> {
        RequestHeadParser.parse(Array(text.utf8)[...], limits: Self.limits)
    }

    private func rejection(_ text: String) -> HeadRejection? {
        if case .failure(let r) = parse(text) { return r }
        return nil
    }

    @Test func aPlainGet() throws {
        let head = try parse("GET /api/rooms/a?x=1 HTTP/1.1\r\nHost: example\r\nX-Thing:  v a l \r\n\r\n").get()
        #expect(head.method == "GET")
        #expect(head.target == "/api/rooms/a?x=1")
        #expect(head.originForm == "/api/rooms/a?x=1")
        #expect(head.path == "/api/rooms/a")
        #expect(head.minorVersion == 1)
        #expect(head.values(of: "x-thing") == [Array("v a l".utf8)])
        #expect(head.contentLength == nil)
    }

    @Test func http10NeedsNoHost() throws {
        #expect(try parse("GET / HTTP/1.0\r\n\r\n").get().minorVersion == 0)
        #expect(try parse("GET / HTTP/1.9\r\nHost: a\r\n\r\n").get().minorVersion == 1)
    }

    @Test func obsTextInValuesIsKeptByteForByte() throws {
        let bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX: caf".utf8) + [0xC3, 0xA9, 0xFF] + Array("\r\n\r\n".utf8)
        let head = try RequestHeadParser.parse(bytes[...], limits: Self.limits).get()
        #expect(head.values(of: "x") == [Array("caf".utf8) + [0xC3, 0xA9, 0xFF]])
    }

    @Test(arguments: [
        "GET  / HTTP/1.1\r\nHost: a\r\n\r\n",          // two spaces
        "GET / HTTP/1.1 \r\nHost: a\r\n\r\n",          // trailing space
        "GET /\r\nHost: a\r\n\r\n",                    // HTTP/0.9
        "GET / http/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1\r\nHost: a\r\n\r\n",
        "G(T / HTTP/1.1\r\nHost: a\r\n\r\n",           // not a token
        "GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n",   // DEL in the target
        "GET /é HTTP/1.1\r\nHost: a\r\n\r\n",          // non-ASCII target
        "GET /%zz HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /%4 HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /a%00b HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\n\r\n",                      // no Host
        "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost : a\r\n\r\n",          // blank before the colon
        "GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n: empty name\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: a\u{1}b\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n", // CR inside a value
        "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET ftp://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET a/b HTTP/1.1\r\nHost: a\r\n\r\n",
    ])
    func malformedIs400(_ text: String) {
        guard case .malformed = rejection(text) else {
            Issue.record("\(text.debugDescription) gave \(String(describing: rejection(text)))"); return
        }
    }

    @Test func otherVersionsAre505() {
        #expect(rejection("GET / HTTP/2.0\r\nHost: a\r\n\r\n") == .versionNotSupported)
        #expect(rejection("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") == .versionNotSupported)
    }

    @Test func longTargetsAndManyParametersAre414() {
        let long = "/" + String(repeating: "a", count: Self.limits.maxTargetBytes)
        #expect(rejection("GET \(long) HTTP/1.1\r\nHost: a\r\n\r\n") == .targetTooLong)
        let atLimit = String(long.dropLast())
        #expect((try? parse("GET \(atLimit) HTTP/1.1\r\nHost: a\r\n\r\n").get()) != nil)
        let params = (0..<Self.limits.maxQueryParameters).map { "p\($0)=1" }
        #expect((try? parse("GET /?\(params.joined(separator: "&")) HTTP/1.1\r\nHost: a\r\n\r\n").get()) != nil)
        #expect(rejection("GET /?\((params + ["one=more"]).joined(separator: ";")) HTTP/1.1\r\nHost: a\r\n\r\n") == .targetTooLong)
    }

    @Test func transferEncodingIsRefused() {
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n") == .transferEncoding)
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") == .transferEncoding)
    }

    @Test func hugeContentLengthIs413() {
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n") == .bodyTooLarge)
        #expect(rejection("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 16385\r\n\r\n") == .bodyTooLarge)
    }

    @Test func theFourTargetForms() throws {
        #expect(try parse("GET http://example.com:8080/a/b?c=d HTTP/1.1\r\nHost: x\r\n\r\n").get().originForm == "/a/b?c=d")
        #expect(try parse("GET HTTPS://example.com HTTP/1.1\r\nHost: x\r\n\r\n").get().originForm == "/")
        #expect(try parse("GET http://example.com?q HTTP/1.1\r\nHost: x\r\n\r\n").get().originForm == "/?q")
        #expect(try parse("CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n").get().originForm == nil)
        #expect(try parse("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").get().originForm == nil)
    }

    @Test func arbitraryBytesNeverTrap() {
        // Every single-byte mutation of a valid head parses or is refused; none crashes.
        let base = Array("POST /api/rooms?a=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\n".utf8)
        for i in base.indices {
            for b: UInt8 in [0, 9, 10, 13, 32, 37, 43, 44, 45, 58, 127, 128, 255] {
                var m = base
                m[i] = b
                _ = RequestHeadParser.parse(m[...], limits: Self.limits)
                var scanner = HeadScanner(limits: Self.limits)
                _ = scanner.scan(m)
            }
        }
    }
}
