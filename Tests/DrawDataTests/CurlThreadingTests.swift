import DrawCore
@testable import DrawData
import Foundation
import Testing

/// The threading rule: blocking curl transfers run on the worker pool, never on the cooperative
/// pool, so other async work keeps running while transfers hang.
struct CurlThreadingTests {
    @Test func hangingTransfersDoNotStallOtherTasks() async throws {
        let server = try TestHTTPServer(routes: ["/hang": .silent])
        // More hanging transfers than the cooperative pool has threads (one per core): if curl
        // blocked cooperative threads, every one of them would be stuck until the timeout.
        let hangingCount = ProcessInfo.processInfo.activeProcessorCount + 2
        // A private pool, so hanging its threads does not delay the other tests' fetches.
        let client = CurlHTTPClient(configuration: .init(totalTimeout: .milliseconds(1500)),
                                    pool: CurlWorkerPool(threadCount: hangingCount))
        let url = server.url("/hang")
        let started = ContinuousClock.now
        let hanging = (0..<hangingCount).map { _ in Task { await failure { try await client.get(url) } } }

        // Once every request has reached the server, that many threads sit in curl_easy_perform.
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
        // All of the above ran while the transfers were still hanging.
        #expect(ContinuousClock.now - started < .milliseconds(1000))

        for task in hanging {
            #expect(unreachableReason(await task.value) == "timed out waiting for the response (limit 1500 ms)")
        }
    }
}
