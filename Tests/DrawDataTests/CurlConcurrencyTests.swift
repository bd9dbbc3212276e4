import DrawCore
@testable import DrawData
import Foundation
import Testing

/// Issue 11, finding 5: list fetches run side by side, so sources that hold their answer delay
/// only their own fetches. (On four blocking worker threads, eight held fetches made every other
/// fetch wait for the timeout.)
struct CurlConcurrencyTests {
    /// Counts fetches that have ended; guarded by its lock.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func heldSourcesDoNotDelayAnotherFetch() async throws {
        let gate = HoldGate()
        defer { gate.open() }
        let server = try TestHTTPServer(routes: ["/held": .held(gate, then: .json("[1]")), "/quick": .json("[2]")])
        // A private transfer thread, so other tests' fetches do not count.
        let client = CurlHTTPClient(configuration: .init(totalTimeout: .seconds(20)), multi: CurlMulti(maxTransfers: 64))
        let heldCount = 16   // eight rooms, two lists each; four times the old worker threads
        let ended = Counter()
        let held = (0..<heldCount).map { _ in
            Task {
                let body = try await client.get(server.url("/held"))
                ended.increment()
                return body
            }
        }
        // Every held request has reached the server: that many transfers are in flight.
        var arrived = 0
        for await path in server.requests where path == "/held" {
            arrived += 1
            if arrived == heldCount { break }
        }
        let quick = try await client.get(server.url("/quick"))
        #expect(Array(quick) == Array("[2]".utf8))
        #expect(ended.value == 0, "the quick fetch completed while every held one was still held")

        gate.open()
        for task in held { #expect(Array(try await task.value) == Array("[1]".utf8)) }
    }

    /// The cap on transfers at once: past it, fetches wait their turn (first in, first out) and
    /// start as soon as a place frees up.
    @Test func fetchesPastTheCapWaitForAPlace() async throws {
        let gate = HoldGate()
        defer { gate.open() }
        let server = try TestHTTPServer(routes: ["/held": .held(gate, then: .json("[1]")),
                                                 "/quick": .noting(gate, then: .json("[2]"))])
        let client = CurlHTTPClient(configuration: .init(totalTimeout: .seconds(20)), multi: CurlMulti(maxTransfers: 2))
        let held = (0..<2).map { _ in Task { _ = try await client.get(server.url("/held")) } }
        var arrived = 0
        for await path in server.requests where path == "/held" {
            arrived += 1
            if arrived == 2 { break }
        }
        // Both places are taken: the third fetch waits, and reaches the server only once the
        // held answers were released.
        let third = Task { try await client.get(server.url("/quick")) }
        gate.open()
        #expect(Array(try await third.value) == Array("[2]".utf8))
        #expect(gate.notes == [true], "the third request arrived while both places were held")
        for task in held { try await task.value }
    }
}
