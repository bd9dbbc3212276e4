@testable import DrawServer
import Testing

/// The one route whose body may pass the API's usual limit (an entrant list, issue 15): how it is
/// matched, its body limit, the front door's answer one byte past it, and the PUT's way to lws.
struct UploadRouteTests {
    static let limits = RequestLimits(maxBodyBytes: 100, maxUploadBytes: 1000)

    static func head(_ text: String) -> Result<RequestHead, HeadRejection> {
        RequestHeadParser.parse(Array(text.utf8)[...], limits: limits)
    }

    @Test func theRoomsListAndSettingsAreRoutes() {
        #expect(HTTPRoute.match("/api/rooms/team-a/entrants") == .roomEntrants("team-a"))
        #expect(HTTPRoute.match("/api/rooms/team-a/settings") == .roomSettings("team-a"))
        #expect(HTTPRoute.roomEntrants("x").allowHeader == "GET, HEAD, PUT, DELETE")
        #expect(HTTPRoute.roomEntrants("x").needsHostKey(.get))
        #expect(HTTPRoute.roomSettings("x").allowHeader == "PUT")
    }

    @Test func onlyAPutOfAListGetsTheUploadLimit() {
        #expect(Self.limits.maxBodyBytes(method: "PUT", path: "/api/rooms/a/entrants") == 1000)
        #expect(Self.limits.maxBodyBytes(method: "POST", path: "/api/rooms/a/entrants") == 100)
        #expect(Self.limits.maxBodyBytes(method: "PUT", path: "/api/rooms/a/settings") == 100)
        #expect(Self.limits.maxBodyBytes(method: "PUT", path: nil) == 100)
    }

    @Test func aListOnePastTheUploadLimitIsRefusedNamingIt() throws {
        let at = try Self.head("PUT /api/rooms/a/entrants HTTP/1.1\r\nHost: a\r\nContent-Length: 1000\r\n\r\n").get()
        #expect(at.contentLength == 1000)
        guard case .failure(let why) = Self.head("PUT /api/rooms/a/entrants HTTP/1.1\r\nHost: a\r\nContent-Length: 1001\r\n\r\n") else {
            Issue.record("1001 bytes accepted")
            return
        }
        #expect(why == .uploadTooLarge(limitBytes: 1000))
        #expect(why.code == .listTooLarge && why.code.httpStatus == 413)
        #expect(why.message?.contains("1000") == true && why.message?.contains("--max-upload-bytes") == true)
        // Any other route keeps the usual limit and answer.
        let settings = Self.head("PUT /api/rooms/a/settings HTTP/1.1\r\nHost: a\r\nContent-Length: 101\r\n\r\n")
        #expect(settings == .failure(.bodyTooLarge))
    }

    @Test func aPutGoesToLwsAsAPostWithItsBodyBeside() throws {
        let head = try Self.head("PUT /api/rooms/a/entrants HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n").get()
        #expect(head.refusal == nil)
        let forwarded = String(decoding: head.forwardedHead(), as: UTF8.self)
        #expect(forwarded.hasPrefix("POST /api/rooms/a/entrants HTTP/1.1\r\n"))
        #expect(forwarded.contains("Content-Length: 0\r\n"))
        #expect(RequestHead.bodyMethods.contains("PUT"))
    }
}
