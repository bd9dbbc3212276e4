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

    /// RFC 6455 §4.1: a handshake is a GET. `POST /ws/lobby` with the upgrade fields is plain
    /// HTTP (the API answers 405), never a 101; so is a HEAD.
    @Test func onlyAGetIsAWebSocketHandshake() throws {
        let fields = "Host: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        for method in ["POST", "HEAD", "DELETE", "PUT"] {
            #expect(try !head("\(method) /ws/lobby HTTP/1.1\r\n" + fields).isWebSocketUpgrade)
            #expect(try !forwarded("\(method) /ws/lobby HTTP/1.1\r\n" + fields).lowercased().contains("upgrade"))
        }
    }

    /// lws collapses empty, `.` and `..` segments after decoding, which turned `/api/rooms/%2F`
    /// into `/api/rooms/` (the room list: GET was 405). Such API segments go to lws as `%25`, a
    /// name no room has, on the route the client named.
    @Test func apiSegmentsLwsWouldMergeBecomeInvalidNames() throws {
        func target(_ path: String) throws -> String {
            let line = try forwarded("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n").split(separator: "\r\n").first ?? ""
            return String(line.dropFirst(4).dropLast(9))
        }
        #expect(try target("/api/rooms/%2F") == "/api/rooms/%25")
        #expect(try target("/api/rooms/.") == "/api/rooms/%25")
        #expect(try target("/api/rooms/%2e%2E/draws?limit=1") == "/api/rooms/%25/draws?limit=1")
        #expect(try target("/api/rooms/a%2F..") == "/api/rooms/%25")
        #expect(try target("/api/rooms//key") == "/api/rooms/%25/key")
        #expect(try target("/api/draws/%5C") == "/api/draws/%25")
        // Unchanged: ordinary names, the list's trailing slash, static files and rooms to join.
        for same in ["/api/rooms/lobby", "/api/rooms/", "/api/rooms/a%20b", "/api/rooms/x/draws?cursor=", "/a/../b", "/ws/%2F"] {
            #expect(try target(same) == same)
        }
        #expect(HTTPRoute.match("/api/rooms/%") == .room("%"))
    }

    /// RFC 9110 §9.3.2: the front door's own answer to a HEAD has no body, also when the head
    /// was refused before it was parsed (`HEAD /%zz`).
    @Test func aHeadRequestIsKnownFromItsFirstBytes() {
        #expect(RequestHead.announcesHEAD(Array("HEAD /%zz HTTP/1.1\r\n".utf8)))
        #expect(RequestHead.announcesHEAD(Array("\r\nHEAD / HT".utf8)))
        #expect(!RequestHead.announcesHEAD(Array("GET / HTTP/1.1\r\n".utf8)))
        #expect(!RequestHead.announcesHEAD(Array("HEADX / HTTP/1.1\r\n".utf8)))
        #expect(!RequestHead.announcesHEAD(Array("HEA".utf8)))
        let body = RawResponse.error(.badRequest, headOnly: true)
        #expect(String(decoding: body, as: UTF8.self).hasSuffix("\r\n\r\n"))
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
