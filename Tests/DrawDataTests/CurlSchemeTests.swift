import CCurl
import DrawCore
@testable import DrawData
import Foundation
import Testing

/// Only http, https and file are fetched, and redirects only to http or https.
struct CurlSchemeTests {
    @Test(arguments: ["gopher", "ftp", "dict", "telnet", "scp"])
    func disallowedSchemeIsBadURLWithoutNetworkAccess(scheme: String) async throws {
        let server = try TestHTTPServer(routes: [:])
        let url = "\(scheme)://127.0.0.1:\(server.port)/users.json"
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .badURL(source: url))
        #expect(server.acceptedConnections == 0)
    }

    @Test(arguments: ["127.0.0.1/users.json", "", "http:/x", "http://exa mple.com/", "http://x/\u{0}"])
    func urlWithoutAFetchableSchemeIsBadURL(url: String) async {
        let error = await failure { try await Fixtures.client().get(url) }
        #expect(error == .badURL(source: url))
    }

    /// Defence in depth: even if the Swift-side check were bypassed, curl's own protocol
    /// allow-list refuses the scheme before connecting.
    @Test func curlRefusesDisallowedProtocolsItself() async throws {
        let server = try TestHTTPServer(routes: [:])
        let outcome = await withCheckedContinuation { continuation in
            CurlMulti.shared.submit(url: "gopher://127.0.0.1:\(server.port)/x", configuration: .init()) {
                continuation.resume(returning: $0)
            }
        }
        #expect(outcome.code == CURLE_UNSUPPORTED_PROTOCOL)
        #expect(server.acceptedConnections == 0)
    }

    @Test func followsARedirectToHTTP() async throws {
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "/new"), "/new": .json("[]")])
        let body = try await Fixtures.client().get(server.url("/old"))
        #expect(Array(body) == Array("[]".utf8))
    }

    @Test func refusesARedirectToAFile() async throws {
        let target = FileURL.string(fromPath: Fixtures.usersPath)
        let server = try TestHTTPServer(routes: ["/sneaky": .redirect(to: target)])
        let error = await failure { try await Fixtures.client().get(server.url("/sneaky")) }
        #expect(unreachableReason(error) == "redirected to a URL that is not http or https; refused")
    }

    @Test func givesUpAfterTheRedirectLimit() async throws {
        let server = try TestHTTPServer(routes: ["/loop": .redirect(to: "/loop")])
        let error = await failure { try await Fixtures.client().get(server.url("/loop")) }
        #expect(unreachableReason(error) == "more than 3 redirects")
    }
}
