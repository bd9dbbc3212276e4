@testable import DrawCore
import Testing

/// The byte-by-byte canonical encoding writes exactly what the documented form (FAIRNESS.md §3)
/// says, also for the values a fast path could get wrong: escapes, negative and extreme ids, dates
/// with leading zeros.
struct EntrantsEncodingTests {
    /// The form spelled out with string interpolation, as it was written before.
    static func reference(_ players: [Player]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, p) in players.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out += Array("{\"userId\":\(p.userId),\"name\":".utf8)
            JSONText.appendString(p.name, to: &out)
            out += Array(",\"username\":".utf8)
            JSONText.appendString(p.username, to: &out)
            out += Array(",\"regDate\":\"\(p.regDate)\",\"void\":\(p.isVoid)}".utf8)
        }
        return out + [UInt8(ascii: "]")]
    }

    @Test func matchesTheDocumentedForm() {
        let dates = ["0001-01-01", "0999-12-31", "2020-02-29", "9999-09-09"].map { CalendarDate(iso: $0)! }
        let names = ["plain", "quote \" and \\ back", "tab\tnew\nline\u{1}", "émoji 🎉", "", "\u{7f}"]
        let ids = [0, 1, -1, 9, 10, 123_456_789, Int.max, Int.min]
        var players: [Player] = []
        for (i, id) in ids.enumerated() {
            players.append(Player(userId: id, name: names[i % names.count], username: names[(i + 1) % names.count],
                                  regDate: dates[i % dates.count], isVoid: i % 3 == 0))
        }
        #expect(EntrantsEncoding.canonicalJSON(players) == Self.reference(players))
        #expect(EntrantsEncoding.canonicalJSON([]) == Array("[]".utf8))
    }
}
