import DrawCore
import Testing

struct SupportTests {
    @Test func calendarDateParsesOnlyStrictISO() {
        #expect(CalendarDate(iso: "2020-10-19")?.description == "2020-10-19")
        #expect(CalendarDate(iso: "2020-02-29") != nil)
        for bad in ["2019-02-29", "2020-13-01", "2020-1-01", "20-10-19", "2020/10/19", "2020-10-19T00:00", "", "２０２０-10-19"] {
            #expect(CalendarDate(iso: bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func hexRoundTrips() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func seedRequires32Bytes() {
        #expect(Seed(bytes: Array(repeating: 0, count: 31)) == nil)
        #expect(Seed(hex: String(repeating: "0", count: 64)) != nil)
        #expect(Seed(hex: String(repeating: "0", count: 62)) == nil)
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals("secret-key", "secret-key"))
        #expect(!ConstantTime.equals("secret-key", "secret-kez"))
        #expect(!ConstantTime.equals("secret-key", "secret-ke"))
        #expect(!ConstantTime.equals("", "x"))
        #expect(ConstantTime.equals("", ""))
    }
}
