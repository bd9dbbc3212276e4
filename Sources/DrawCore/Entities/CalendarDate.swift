/// A calendar day without time or zone, as the user list's `regDate` (`yyyy-MM-dd`) carries it.
///
/// Kept as plain numbers rather than `Foundation.Date` because a registration day has no instant:
/// converting it through a time zone could shift it by a day.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    // Four bytes, not three `Int`s (24): every user and player carries a date, and 100,000 of
    // them are one upload's list (issue 31: an upload's memory is a small multiple of its body).
    private let storedYear: Int16
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// Creates a date after checking that the day exists (leap years included).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= CalendarDate.daysIn(month: month, year: year) else { return nil }
        storedYear = Int16(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Parses exactly `yyyy-MM-dd` (ASCII digits, zero-padded). Anything else is `nil`.
    public init?(iso string: String) {
        let bytes = Array(string.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for b in bytes[range] {
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b - UInt8(ascii: "0"))
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// `yyyy-MM-dd`, the same form it was parsed from.
    public var description: String {
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
