import DrawCore
@testable import DrawData
import Foundation
import Testing

/// The threading rule: curl transfers run on the `CurlMulti` thread, never on the cooperative
/// pool, so other async work keeps running while transfers hang.
struct CurlThreadingTests {
    @Test func hangingTransfersDoNotStallOtherTasks() async throws {
        // Held until the end of the test: no timeout to race against on a busy machine.
        let gate = HoldGate()
        let server = try TestHTTPServer(routes: ["/hang": .held(gate, then: .json("[]"))])
        // More hanging transfers than the cooperative pool has threads (one per core): if curl
        // blocked cooperative threads, every one of them would be stuck until the timeout.
        let hangingCount = ProcessInfo.processInfo.activeProcessorCount + 2
        // A private transfer thread, so these hanging transfers share nothing with other tests.
        let client = CurlHTTPClient(configuration: .init(totalTimeout: .seconds(120)),
                                    multi: CurlMulti(maxTransfers: 64))
        let url = server.url("/hang")
        // Counts hanging transfers that have ended. The proof is by order, not by elapsed time
        // (the machine is shared and noisy): the task group below must complete while this is 0.
        let ended = LockedCounter()
        let hanging = (0..<hangingCount).map { _ in
            Task {
                let body = try? await client.get(url)
                ended.increment()
                return body
            }
        }

        // Once every request has reached the server, that many transfers are hanging.
        var arrived = 0
        for await _ in server.requests {
            arrived += 1
            if arrived == hangingCount { break }
        }
        let sum = await withTaskGroup(of: Int.self) { group in
            for i in 1...16 { group.addTask { i } }
            return await group.reduce(0, +)
        }
        #expect(sum == 136)
        // All of the above ran while every transfer was still hanging.
        #expect(ended.value == 0)

        gate.open()
        for task in hanging {
            #expect(await task.value == Data("[]".utf8))
        }
    }
}

/// A thread-safe counter; @unchecked Sendable because `count` is only touched under `lock`.
private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
