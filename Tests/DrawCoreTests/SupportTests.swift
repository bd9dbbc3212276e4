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

    @Test func hostKeyFormIsExactly48LowercaseHex() {
        let key = "00112233445566778899aabbccddeeff0011223344556677"
        #expect(HostKey.isWellFormed(key))
        for bad in ["", String(key.dropLast()), key + "0", key.uppercased(), " " + key.dropFirst(), key.replacingOccurrences(of: "0", with: "g")] {
            #expect(!HostKey.isWellFormed(bad), "\(bad)")
        }
    }

    @Test func hostKeyHashIsTheSHA256OfTheKeyAndMatchesOnlyIt() {
        let key = "00112233445566778899aabbccddeeff0011223344556677"
        let hash = HostKeyHash(of: key)
        // sha256 of the 48 ASCII characters (printf %s KEY | sha256sum).
        #expect(hash.hex == "6b374db4159ffa3ad74bcc886b8d70a0c421952f0dddb887820093e27044d8d4")
        #expect(HostKeyHash(hex: hash.hex) == hash)
        #expect(HostKeyHash(hex: hash.hex.uppercased()) == hash)
        #expect(HostKeyHash(hex: String(hash.hex.dropLast(2))) == nil)
        #expect(HostKeyHash(hex: String(repeating: "z", count: 64)) == nil)
        #expect(hash.matches(key))
        #expect(!hash.matches(key.uppercased()))
        #expect(!hash.matches(String(key.dropLast())))
        #expect(!hash.matches(""))
        #expect(!hash.description.contains(key))
    }
}
