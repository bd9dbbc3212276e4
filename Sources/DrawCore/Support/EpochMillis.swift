/// The range of wall-clock times (epoch milliseconds) this server accepts from anything it did
/// not compute itself: a peer's envelope, a value read back from Redis or a stored record.
///
/// Why a range and not only `isFinite`: such times end up converted to integers (`JSONWriter`'s
/// microseconds, nanosecond metrics and timers), and a finite `1e300` traps that conversion as
/// surely as a NaN does. 1970…9999 is every time a draw can have (`RFC3339Time` writes the same
/// span) and keeps microseconds far inside `Int64`.
public enum EpochMillis {
    /// The first millisecond of the year 10000 (UTC): the first one out of range.
    public static let end: Double = 253_402_300_800_000

    /// Whether `ms` is a finite time within 1970…9999.
    public static func isInRange(_ ms: Double) -> Bool {
        ms.isFinite && ms >= 0 && ms < end
    }
}
