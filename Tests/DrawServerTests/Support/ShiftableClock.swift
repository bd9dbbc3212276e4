import DrawCore
import Foundation

/// The system clock plus an offset the test moves forward: time "passes" at once, so a test of
/// something that happens after minutes (an idle room freed) neither sleeps nor hopes.
final class ShiftableClock: DrawClock, @unchecked Sendable {
    private let base = SystemTestClock()
    private let lock = NSLock()
    private var offsetNanos: UInt64 = 0 // guarded by lock

    /// Moves both clocks `seconds` forward.
    func advance(seconds: UInt64) {
        lock.withLock { offsetNanos += seconds * 1_000_000_000 }
    }

    func epochMillis() -> Double {
        base.epochMillis() + Double(lock.withLock { offsetNanos }) / 1e6
    }

    func monotonicNanos() -> UInt64 {
        base.monotonicNanos() + lock.withLock { offsetNanos }
    }
}
