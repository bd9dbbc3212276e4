import DrawCore
@testable import DrawData
import Foundation
import Testing

/// Issue 11, finding 12: a list URL that redirects is followed only within its own origin unless
/// the operator allows more, and a failure after a redirect names the final cause, not the 302.
/// Two real local servers on two ports are two origins.
struct CurlRedirectTests {
    private func client(_ policy: RedirectPolicy = .sameOrigin,
                        totalTimeout: Duration = .seconds(5)) -> CurlHTTPClient {
        CurlHTTPClient(configuration: .init(connectTimeout: .seconds(2), totalTimeout: totalTimeout,
                                            maxResponseBytes: 1024, redirects: policy))
    }

    @Test func sameOriginRedirectsAreFollowedByDefault() async throws {
        let server = try TestHTTPServer(routes: [
            "/relative": .redirect(to: "/list"),
            // Absolute, with the port spelled out: the same origin.
            "/absolute": .redirect(to: "{origin}/list"),
            "/twice": .redirect(to: "/relative"),
            "/list": .json("[7]"),
        ])
        for path in ["/relative", "/absolute", "/twice"] {
            #expect(Array(try await client().get(server.url(path))) == Array("[7]".utf8), "\(path)")
        }
    }

    @Test func aCrossOriginRedirectIsRefusedWithoutConnecting() async throws {
        let elsewhere = try TestHTTPServer(routes: ["/list": .json("[1]")])
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: elsewhere.url("/list?token=secret"))])
        let error = await failure { try await client().get(server.url("/old")) }
        #expect(error == .unreachable(
            source: server.url("/old"),
            reason: "redirected to another origin, http://127.0.0.1:\(elsewhere.port); "
                + "only redirects within http://127.0.0.1:\(server.port) are followed"))
        #expect(error?.message.contains("secret") == false, "the target's query is not shown")
        #expect(elsewhere.acceptedConnections == 0, "the other origin was never contacted")
    }

    @Test func anotherSchemeOnTheSameHostIsAnotherOrigin() async throws {
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "https://127.0.0.1:1/list")])
        let error = await failure { try await client().get(server.url("/old")) }
        #expect(unreachableReason(error)?.hasPrefix("redirected to another origin, https://127.0.0.1:1;") == true)
    }

    @Test func theOperatorMayAllowAnyOrigin() async throws {
        let elsewhere = try TestHTTPServer(routes: ["/list": .json("[2]")])
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: elsewhere.url("/list"))])
        #expect(Array(try await client(.any).get(server.url("/old"))) == Array("[2]".utf8))
    }

    @Test func theOperatorMayRefuseEveryRedirect() async throws {
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "/list"), "/list": .json("[3]")])
        let error = await failure { try await client(.none).get(server.url("/old")) }
        #expect(error == .unreachable(source: server.url("/old"),
                                      reason: "redirected to http://127.0.0.1:\(server.port); this server follows no redirects"))
    }

    @Test func aFailedTargetIsReportedAsItsOwnStatus() async throws {
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "/gone?sig=abc")])
        let error = await failure { try await client().get(server.url("/old")) }
        #expect(error == .badStatus(source: "\(server.url("/old")) (redirected to \(server.url("/gone")))", status: 404))
        #expect(error?.message.contains("302") == false)
    }

    @Test func anUnreachableTargetIsReportedAsTheConnectFailure() async throws {
        let closed = try LoopbackSocket.closedPort()
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "http://127.0.0.1:\(closed)/list")])
        let error = await failure { try await client(.any).get(server.url("/old")) }
        #expect(error == .unreachable(source: "\(server.url("/old")) (redirected to http://127.0.0.1:\(closed)/list)",
                                      reason: "connection refused"))
        #expect(error?.message.contains("302") == false)
    }

    /// A target that never answers times out like any fetch, and the error says where it was
    /// redirected to (the total timeout is what is left of the whole fetch's budget after the
    /// redirect: `CurlTransfer.finished`).
    @Test func aSlowTargetTimesOutAndNamesTheTarget() async throws {
        let server = try TestHTTPServer(routes: ["/old": .redirect(to: "/slow"), "/slow": .silent])
        let error = await failure { try await client(totalTimeout: .milliseconds(400)).get(server.url("/old")) }
        #expect(error?.source == "\(server.url("/old")) (redirected to \(server.url("/slow")))")
        #expect(unreachableReason(error) == "timed out waiting for the response (limit 400 ms)")
    }
}
