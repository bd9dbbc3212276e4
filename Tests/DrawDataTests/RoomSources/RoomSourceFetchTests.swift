import DrawCore
@testable import DrawData
import Foundation
import Testing

/// A room's list URLs are fetched under the operator's rules (issue 15): the address curl
/// connects to is checked (so a name, a redirect or DNS cannot reach an internal address), hosts
/// are checked again on every redirect, and only http(s) is ever fetched. Real local servers.
struct RoomSourceFetchTests {
    private func client(hosts: [String], allowPrivate: Bool = false, exempt: [String] = [],
                        redirects: RedirectPolicy = .any) -> CurlHTTPClient {
        let restriction = SourceRestriction(allowedHosts: hosts, allowPrivateAddresses: allowPrivate,
                                            exemptAddresses: Set(exempt.compactMap(IPAddress.init)))
        return CurlHTTPClient(configuration: .init(connectTimeout: .seconds(2), totalTimeout: .seconds(5),
                                                   maxResponseBytes: 1024, redirects: redirects, restriction: restriction))
    }

    private func refusedReason(_ error: DataSourceError?) -> String? {
        if case .refused(_, let reason)? = error { return reason }
        return nil
    }

    @Test func aLoopbackAddressIsRefusedBeforeAnyConnection() async throws {
        let server = try TestHTTPServer(routes: ["/list": .json("[1]")])
        let error = await failure { try await client(hosts: ["127.0.0.1"]).get(server.url("/list")) }
        #expect(refusedReason(error)?.contains("127.0.0.1, a loopback address") == true, "\(String(describing: error))")
        #expect(error?.code == "source_refused")
        #expect(server.acceptedConnections == 0)
    }

    @Test func aNameIsJudgedByTheAddressItResolvesTo() async throws {
        let server = try TestHTTPServer(routes: ["/list": .json("[1]")])
        let error = await failure { try await client(hosts: ["localhost"]).get("http://localhost:\(server.port)/list") }
        #expect(refusedReason(error)?.contains("a loopback address") == true, "\(String(describing: error))")
        #expect(server.acceptedConnections == 0)
    }

    @Test func theOperatorMayAllowPrivateAddresses() async throws {
        let server = try TestHTTPServer(routes: ["/list": .json("[2]")])
        let body = try await client(hosts: ["127.0.0.1"], allowPrivate: true).get(server.url("/list"))
        #expect(Array(body) == Array("[2]".utf8))
    }

    @Test func aRedirectToAnInternalAddressIsRefusedAtConnect() async throws {
        // 127.0.0.1 stands in for a public host (exempt); the redirect goes to 127.0.0.2, an
        // allowed name whose address is loopback: refused when curl is about to connect.
        let server = try TestHTTPServer(routes: ["/list": .redirect(to: "http://127.0.0.2:\(1)/admin")])
        let error = await failure {
            try await client(hosts: ["127.0.0.1", "127.0.0.2"], exempt: ["127.0.0.1"]).get(server.url("/list"))
        }
        #expect(refusedReason(error)?.contains("127.0.0.2, a loopback address") == true, "\(String(describing: error))")
        #expect(server.acceptedConnections == 1)
    }

    @Test func aRedirectToAHostNotAllowedIsRefusedWithoutConnecting() async throws {
        let server = try TestHTTPServer(routes: ["/list": .redirect(to: "http://169.254.169.254/latest/meta-data")])
        let error = await failure { try await client(hosts: ["127.0.0.1"], allowPrivate: true).get(server.url("/list")) }
        #expect(refusedReason(error)?.contains("http://169.254.169.254:80, a host this server does not fetch room lists from") == true,
                "\(String(describing: error))")
    }

    @Test func onlyHTTPAndAllowedHostsAreFetched() async throws {
        let file = await failure { try await client(hosts: ["localhost"], allowPrivate: true).get("file:///etc/passwd") }
        #expect(file?.code == "source_refused")
        let other = await failure { try await client(hosts: ["127.0.0.1"], allowPrivate: true).get("http://127.0.0.2:1/x") }
        #expect(refusedReason(other)?.contains("127.0.0.2 is not a host") == true)
    }

    @Test func theFetcherChecksURLsWithoutNetwork() {
        let fetcher = RoomSourceFetcher(restriction: SourceRestriction(allowedHosts: ["lists.example.com", "10.0.0.5"],
                                                                       allowPrivateAddresses: false),
                                        fetch: .init())
        func reason(_ users: String, _ lottery: String = "https://lists.example.com/l.json") -> RoomSourceRefusal.Reason? {
            fetcher.refusal(of: DrawSources(usersURL: users, lotteryURL: lottery))?.reason
        }
        #expect(reason("https://lists.example.com/u.json") == nil)
        #expect(reason("http://LISTS.example.com:8080/u.json") == nil)
        #expect(reason("file:///etc/passwd") == .invalidURL)
        #expect(reason("ftp://lists.example.com/u.json") == .invalidURL)
        #expect(reason("gopher://lists.example.com/") == .invalidURL)
        #expect(reason("https://user:pw@lists.example.com/u.json") == .invalidURL)
        #expect(reason("not a url") == .invalidURL)
        #expect(reason("https://evil.example.com/u.json") == .hostNotAllowed)
        #expect(reason("https://lists.example.com/u.json", "https://127.0.0.1/l.json") == .hostNotAllowed)
        #expect(reason("https://10.0.0.5/u.json") == .internalAddress)
        let off = RoomSourceFetcher(restriction: SourceRestriction(allowedHosts: [String](), allowPrivateAddresses: false), fetch: .init())
        #expect(off.refusal(of: DrawSources(usersURL: "https://a/", lotteryURL: "https://a/"))?.reason == .off)
    }
}
