/// Configured durations as monotonic-clock nanoseconds, saturating: a negative count is 0, and a
/// count too large for nanoseconds means "never", not a short interval that wrapped around.
///
/// The one conversion for every configured interval (idle pings, heartbeats, close deadlines,
/// room idleness): each used to multiply on its own, one of them wrapping on overflow.
enum Nanoseconds {
    static func seconds(_ count: Int) -> UInt64 { scaled(count, by: 1_000_000_000) }

    static func milliseconds(_ count: Int) -> UInt64 { scaled(count, by: 1_000_000) }

    private static func scaled(_ count: Int, by unit: UInt64) -> UInt64 {
        let (product, overflow) = UInt64(clamping: count).multipliedReportingOverflow(by: unit)
        return overflow ? .max : product
    }
}
