import DrawCore
import DrawData
import Foundation
import Testing

/// The client against a real HTTP server on 127.0.0.1: statuses and network failures.
struct CurlHTTPClientTests {
    @Test func returnsTheBodyOf200() async throws {
        let server = try TestHTTPServer(routes: ["/hello": .json(#"{"a":1}"#)])
        let body = try await Fixtures.client().get(server.url("/hello"))
        #expect(Array(body) == Array(#"{"a":1}"#.utf8))
    }

    @Test(arguments: [404, 500])
    func nonSuccessStatusIsBadStatusWithTheCode(status: Int) async throws {
        let server = try TestHTTPServer(routes: ["/list": .status(status, body: Array("oops".utf8))])
        let url = server.url("/list")
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .badStatus(source: url, status: status))
    }

    @Test func statusWinsOverAnOversizedErrorBody() async throws {
        let server = try TestHTTPServer(routes: ["/big404": .status(404, body: Array(repeating: 65, count: 65_536))])
        let url = server.url("/big404")
        let error = await failure { try await Fixtures.client(maxResponseBytes: 1024).get(url) }
        #expect(error == .badStatus(source: url, status: 404))
    }

    @Test func serverThatNeverAnswersIsAnUnreachableTimeout() async throws {
        let server = try TestHTTPServer(routes: ["/slow": .silent])
        let client = Fixtures.client(totalTimeout: .milliseconds(300))
        // The reason names the limit, which shows the total timeout ended it (no wall-clock bound:
        // on a loaded machine that only measures the machine).
        let error = await failure { try await client.get(server.url("/slow")) }
        #expect(unreachableReason(error) == "timed out waiting for the response (limit 300 ms)")
    }

    @Test func refusedConnectionIsUnreachable() async throws {
        let url = "http://127.0.0.1:\(try LoopbackSocket.closedPort())/users.json"
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .unreachable(source: url, reason: "connection refused"))
    }

    @Test func unknownHostIsADNSFailure() async throws {
        // `.invalid` is reserved (RFC 2606) and never resolves, so this needs no network.
        let error = await failure { try await Fixtures.client().get("http://no-such-host.invalid/users.json") }
        #expect(unreachableReason(error)?.hasPrefix("DNS lookup failed") == true)
    }

    @Test func plainHTTPServerOnAnHTTPSURLIsATLSFailure() async throws {
        let server = try TestHTTPServer(routes: ["/x": .json("{}")])
        let url = "https://127.0.0.1:\(server.port)/x"
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(unreachableReason(error)?.hasPrefix("TLS handshake failed") == true)
    }

    @Test func errorsHideCredentialsInTheURL() async throws {
        let server = try TestHTTPServer(routes: [:])
        let url = "http://alice:s3cret@127.0.0.1:\(server.port)/nothing"
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .badStatus(source: "http://***@127.0.0.1:\(server.port)/nothing", status: 404))
    }
}
