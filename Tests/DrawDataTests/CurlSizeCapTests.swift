import DrawCore
import DrawData
import Foundation
import Testing

/// The response size cap (1024 bytes here) holds however the server sends the body.
struct CurlSizeCapTests {
    private static let big = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)

    @Test(arguments: ["/length", "/chunked", "/until-close"])
    func oversizedBodyIsTooLarge(path: String) async throws {
        let server = try TestHTTPServer(routes: [
            "/length": .status(200, body: Self.big),
            "/chunked": .chunked(body: Self.big),
            "/until-close": .untilClose(body: Self.big),
        ])
        let url = server.url(path)
        let error = await failure { try await Fixtures.client(maxResponseBytes: 1024).get(url) }
        #expect(error == .tooLarge(source: url, limitBytes: 1024))
    }

    /// A body that never ends: buffering first and checking after would run into the 10 s
    /// timeout (`unreachable`); only a cap enforced while streaming yields `tooLarge`.
    @Test func endlessBodyIsCutAtTheCapWhileStreaming() async throws {
        let server = try TestHTTPServer(routes: ["/endless": .endless])
        let url = server.url("/endless")
        let client = Fixtures.client(totalTimeout: .seconds(10), maxResponseBytes: 1024)
        let error = await failure { try await client.get(url) }
        #expect(error == .tooLarge(source: url, limitBytes: 1024))
    }

    @Test func bodyOfExactlyTheCapIsAccepted() async throws {
        let exact = [UInt8](repeating: UInt8(ascii: "y"), count: 1024)
        let server = try TestHTTPServer(routes: ["/exact": .untilClose(body: exact)])
        let body = try await Fixtures.client(maxResponseBytes: 1024).get(server.url("/exact"))
        #expect(body.count == 1024)
    }

    @Test func defaultCapIsOneMebibyte() {
        #expect(CurlHTTPClient.Configuration().maxResponseBytes == 1_048_576)
    }
}
