import DrawCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Core's `DrawClock` over `clock_gettime`.
///
/// Why not `Date` or `ContinuousClock`: `sentAt` wants epoch milliseconds with the sub-millisecond
/// fraction, and scheduling wants a raw monotonic nanosecond count; `clock_gettime` gives both
/// directly, without Foundation.
public struct SystemClock: DrawClock {
    public init() {}

    /// CLOCK_REALTIME in milliseconds since 1970, with the fraction of a millisecond.
    public func epochMillis() -> Double {
        let t = Self.read(CLOCK_REALTIME)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
    }

    /// CLOCK_MONOTONIC in nanoseconds: unaffected by wall-clock changes, never goes backwards.
    public func monotonicNanos() -> UInt64 {
        let t = Self.read(CLOCK_MONOTONIC)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    private static func read(_ clock: clockid_t) -> timespec {
        var t = timespec()
        // Cannot fail for these two clocks with a valid pointer (POSIX requires both).
        _ = clock_gettime(clock, &t)
        return t
    }
}
