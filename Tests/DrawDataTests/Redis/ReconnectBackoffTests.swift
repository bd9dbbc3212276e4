@testable import DrawData
import Testing

/// The reconnect delays: exponential, capped, jittered within the upper half of the ceiling.
struct ReconnectBackoffTests {
    /// A fixed sequence, so the jitter is reproducible.
    struct Sequence: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test func ceilingDoublesUpToTheCap() {
        let backoff = ReconnectBackoff(initialMs: 100, maxMs: 1_000)
        #expect((0...7).map { backoff.ceilingMs(afterFailures: $0) } == [0, 100, 200, 400, 800, 1_000, 1_000, 1_000])
    }

    @Test func hugeFailureCountsNeitherOverflowNorExceedTheCap() {
        let backoff = ReconnectBackoff(initialMs: 1, maxMs: Int.max)
        #expect(backoff.ceilingMs(afterFailures: 10_000) == Int.max)
        #expect(ReconnectBackoff(initialMs: 100, maxMs: 5_000).ceilingMs(afterFailures: .max) == 5_000)
    }

    @Test func delaysStayWithinTheUpperHalfOfTheCeilingAndVary() {
        let backoff = ReconnectBackoff(initialMs: 100, maxMs: 5_000)
        var generator = Sequence(state: 42)
        for failures in 1...12 {
            let ceiling = backoff.ceilingMs(afterFailures: failures)
            let delays = (0..<200).map { _ in backoff.delayMs(afterFailures: failures, using: &generator) }
            #expect(delays.allSatisfy { $0 >= ceiling / 2 && $0 <= ceiling && $0 <= 5_000 })
            #expect(Set(delays).count > 10, "jitter spreads the nodes out")
        }
        #expect(backoff.delayMs(afterFailures: 0, using: &generator) == 0)
    }
}
