/// Reads RFC 3339 date-times (`2030-01-31T18:00:00Z`, `2030-01-31T19:00:00.250+01:00`) into
/// epoch milliseconds, and writes them back in UTC (the separator `T` and the zone `Z` in either
/// case, fractions of any length within 64 characters). Strict and total: any text that is not
/// one is `nil`, never a trap; a four-digit year keeps every result far from overflowing the
/// arithmetic that follows (years before 1970 are negative times: valid, and in the past).
public enum RFC3339Time {
    /// Epoch milliseconds (whole), or `nil`. Fractions of a second beyond milliseconds are cut.
    public static func epochMs(_ text: String) -> Double? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 64 else { return nil }
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
              let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
              b[16] == UInt8(ascii: ":"), let second = digits(17, 2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              // 60: a leap second, which RFC 3339 allows; read as the next minute's first second.
              hour <= 23, minute <= 59, second <= 60 else { return nil }
        var i = 19
        var millis = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            var n = 0
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if n < 3 { millis = millis * 10 + Int(b[i] - 48) }
                n += 1
                i += 1
            }
            guard n >= 1 else { return nil }
            if n < 3 { for _ in n..<3 { millis *= 10 } }
        }
        guard i < b.count else { return nil }
        var offsetMinutes = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard i + 1 == b.count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard i + 6 == b.count, let oh = digits(i + 1, 2), b[i + 3] == UInt8(ascii: ":"),
                  let om = digits(i + 4, 2), oh <= 23, om <= 59 else { return nil }
            offsetMinutes = (oh * 60 + om) * (b[i] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = ((days * 24 + hour) * 60 + minute) * 60 + second - offsetMinutes * 60
        return Double(seconds) * 1000 + Double(millis)
    }

    /// `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, for a time within 1970…9999; `nil` outside it.
    public static func text(epochMs: Double) -> String? {
        guard EpochMillis.isInRange(epochMs) else { return nil }
        let ms = Int(epochMs)
        let (days, inDay) = (ms / 86_400_000, ms % 86_400_000)
        let (y, m, d) = civil(fromDays: days)
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(inDay / 3_600_000, 2)):\(pad(inDay / 60_000 % 60, 2))"
            + ":\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
    }

    private static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400 // floor division, for years before 1 BC's March
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse (`civil_from_days`), for days ≥ 0.
    private static func civil(fromDays z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = z / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
