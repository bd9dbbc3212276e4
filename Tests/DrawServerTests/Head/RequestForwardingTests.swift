@testable import DrawServer
import Testing

/// What the front door answers itself, and the head lws gets for the rest.
@Suite struct RequestForwardingTests {
    private func head(_ text: String) throws -> RequestHead {
        try RequestHeadParser.parse(Array(text.utf8)[...], limits: RequestLimits()).get()
    }

    private func forwarded(_ text: String) throws -> String {
        String(decoding: try head(text).forwardedHead(), as: UTF8.self)
    }

    @Test func getHeadAndPostGoToLws() throws {
        for method in ["GET", "HEAD", "POST"] {
            #expect(try head("\(method) /healthz HTTP/1.1\r\nHost: a\r\n\r\n").refusal == nil)
        }
    }

    @Test func otherMethodsGet405WithAllow() throws {
        #expect(try head("OPTIONS /healthz HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(try head("TRACE / HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(try head("FOO /api/rooms HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "POST"))
        #expect(try head("PATCH /api/rooms/x/draws HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD, POST"))
        #expect(try head("CONNECT example.com:443 HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD, POST, PUT, DELETE"))
        #expect(try head("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD, POST, PUT, DELETE"))
        #expect(try head("PATCH /api/rooms/x HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD, DELETE"))
        #expect(try head("get / HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .methodNotAllowed(allow: "GET, HEAD"))
        #expect(try head("PATCH /api/nope HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .notFound)
        // DELETE goes to lws, like GET and POST: the API's routing answers it (404, 405 or the room's).
        #expect(try head("DELETE /api/nope HTTP/1.1\r\nHost: a\r\n\r\n").refusal == nil)
        #expect(try head("GET example.com:80 HTTP/1.1\r\nHost: a\r\n\r\n").refusal == .malformed("the request target must be a path"))
    }

    @Test func h2cUpgradeIsDroppedAndEveryPlainRequestCloses() throws {
        let text = "GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\nAccept: */*\r\n\r\n"
        #expect(try forwarded(text) == "GET /healthz HTTP/1.1\r\nHost: a\r\nAccept: */*\r\nConnection: close\r\n\r\n")
        #expect(try forwarded("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nKeep-Alive: 300\r\n\r\n")
                == "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    }

    @Test func webSocketHandshakesPassUnchanged() throws {
        let text = "GET /ws/lobby HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        #expect(try head(text).isWebSocketUpgrade)
        #expect(try forwarded(text) == text)
    }

    @Test func bodiesTravelBesideTheHeadAndExpectIsGone() throws {
        let text = "POST /api/rooms HTTP/1.1\r\nHost: a\r\nContent-Length: 0002, 2\r\nContent-Length: 2\r\n"
            + "Expect: 100-continue\r\n\r\n"
        let h = try head(text)
        #expect(h.expectsContinue)
        #expect(h.contentLength == 2)
        #expect(try forwarded(text) == "POST /api/rooms HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(h.body(in: Array((text + "{}extra").utf8), headEnd: text.utf8.count) == Array("{}".utf8))
        // Without a length a POST still tells lws 0 (lws would otherwise wait for 100 MB); a GET
        // with a body tells lws nothing.
        #expect(try forwarded("POST /api/rooms HTTP/1.1\r\nHost: a\r\n\r\n")
                == "POST /api/rooms HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(try forwarded("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n")
                == "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    }

    @Test func absoluteFormBecomesOriginForm() throws {
        #expect(try forwarded("GET http://a:1/x?y HTTP/1.0\r\n\r\n") == "GET /x?y HTTP/1.0\r\nConnection: close\r\n\r\n")
    }
}
