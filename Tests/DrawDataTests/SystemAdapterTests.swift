import DrawData
import Foundation
import Testing

struct SystemAdapterTests {
    @Test(arguments: [0, 1, 7, 8, 9, 32, 33])
    func randomSourceReturnsExactlyTheCount(count: Int) {
        #expect(SystemRandomSource().bytes(count).count == count)
    }

    @Test func randomSourceDoesNotRepeatItself() {
        let source = SystemRandomSource()
        let a = source.bytes(32), b = source.bytes(32)
        // Equal 256-bit draws would mean a broken generator, not bad luck.
        #expect(a != b)
        // Every byte value can appear: 4096 bytes all below 128 has probability 2^-4096.
        #expect(source.bytes(4096).contains { $0 >= 128 })
    }

    @Test func epochMillisMatchesFoundationsClock() {
        let ours = SystemClock().epochMillis()
        let foundation = Date().timeIntervalSince1970 * 1000
        #expect(abs(ours - foundation) < 1000)
    }

    @Test func monotonicNanosNeverGoBackwards() {
        let clock = SystemClock()
        var last = clock.monotonicNanos()
        for _ in 0..<1000 {
            let now = clock.monotonicNanos()
            #expect(now >= last)
            last = now
        }
    }
}
