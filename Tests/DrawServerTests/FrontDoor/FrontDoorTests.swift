import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// The front door with a real server and small limits: the slow-request cap and deadline,
    /// bodies that arrive in pieces or after `100 Continue`, and what lws is never shown.
    @Suite struct FrontDoorTests {
        static let partial = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "

        private func status(_ s: TestSocket) throws -> Int {
            let head = String(decoding: try s.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
            return Int(head.split(separator: " ")[1]) ?? 0
        }

        @Test func slowRequestsPastTheAddressCapAndTheDeadlineGet408() throws {
            let running = try RunningServer {
                $0.slowHeadAfterMs = 200
                $0.slowHeadsPerAddress = 2
                $0.headTimeoutMs = 1500
            }
            defer { running.stop() }
            let started = Date()
            let sockets = try (0..<5).map { _ in try TestSocket(port: running.port, timeoutSeconds: 3) }
            for s in sockets { try s.send(Self.partial) }
            // Accepted in this order, so the first two are the address's two slow requests; the
            // other three are answered as soon as they turn slow, long before the deadline.
            for s in sockets[2...] { #expect(try status(s) == 408) }
            #expect(Date().timeIntervalSince(started) < 1.4)
            // A fast request from the same address is not held up meanwhile.
            #expect(try TestHTTP.request(port: running.port, "GET", "/healthz").status == 200)
            // The two kept ones get theirs at the deadline.
            for s in sockets[..<2] { #expect(try status(s) == 408) }
            #expect(Date().timeIntervalSince(started) >= 1.5)
        }

        @Test func requestsThatComeLateButWholeAreNeverSlow() throws {
            // A join storm from one address: the client connects, is busy, and sends each head
            // in one piece long after the slow mark. None of them may be refused.
            let running = try RunningServer {
                $0.slowHeadAfterMs = 100
                $0.slowHeadsPerAddress = 1
            }
            defer { running.stop() }
            let sockets = try (0..<6).map { _ in try TestSocket(port: running.port) }
            Thread.sleep(forTimeInterval: 0.4) // well past the slow mark (what is asserted is the outcome)
            for s in sockets { try s.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") }
            for s in sockets { #expect(try status(s) == 200) }
        }

        @Test func aBodyInPiecesAndAfter100ContinueReachesTheAPI() throws {
            let running = try RunningServer()
            defer { running.stop() }
            let body = #"{"name":"pieces"}"#
            let s = try TestSocket(port: running.port)
            try s.send("POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                       + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
            #expect(try status(s) == 100)
            try s.send(String(body.prefix(5)))
            Thread.sleep(forTimeInterval: 0.05) // a second segment, not a timing assertion
            try s.send(String(body.dropFirst(5)))
            #expect(try status(s) == 201)
            _ = try s.read(until: Array(#""room":"pieces""#.utf8)) // the room was created from the body
        }

        @Test func everyAnswerCarriesTheSecurityHeadersAndCloses() throws {
            let running = try RunningServer()
            defer { running.stop() }
            for (method, path) in [("GET", "/healthz"), ("FOO", "/healthz"), ("GET", "/nope/../../x")] {
                let r = try TestHTTP.request(port: running.port, method, path)
                #expect(r.headers["x-content-type-options"] == "nosniff", "\(method) \(path)")
                #expect(r.headers["connection"] == "close", "\(method) \(path)")
            }
        }
    }
}
