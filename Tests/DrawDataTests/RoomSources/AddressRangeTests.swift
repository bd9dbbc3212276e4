@testable import DrawData
import Testing

/// Which addresses a room's list URL may not reach (issue 15): the ranges, IPv4 and IPv6, the
/// IPv6 forms that carry an IPv4 address, and ordinary public addresses on both sides of each
/// range's edge.
struct AddressRangeTests {
    private func range(_ text: String) -> AddressRange? {
        guard let address = IPAddress(text) else {
            Issue.record("\(text) did not parse")
            return nil
        }
        return AddressRange.of(address)
    }

    @Test(arguments: [
        ("0.0.0.0", AddressRange.unspecified), ("0.1.2.3", .unspecified), ("::", .unspecified),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("::1", .loopback), ("[::1]", .loopback),
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork), ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork), ("fec0::1", .privateNetwork),
        ("169.254.169.254", .linkLocal), ("169.254.0.1", .linkLocal), ("fe80::1", .linkLocal), ("febf::1", .linkLocal),
        ("fc00::1", .uniqueLocal), ("fd12:3456::1", .uniqueLocal),
        ("100.64.0.1", .sharedCGNAT), ("100.127.255.255", .sharedCGNAT),
        ("224.0.0.1", .reserved), ("239.255.255.250", .reserved), ("240.0.0.1", .reserved), ("255.255.255.255", .reserved),
        ("192.0.0.8", .reserved), ("192.0.2.1", .reserved), ("198.18.0.1", .reserved), ("198.19.255.255", .reserved),
        ("198.51.100.7", .reserved), ("203.0.113.9", .reserved), ("ff02::1", .reserved), ("2001:db8::1", .reserved),
        // IPv6 forms carrying an IPv4 address are judged by it.
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:169.254.169.254", .linkLocal),
        ("::ffff:7f00:1", .loopback), ("::127.0.0.1", .loopback), ("::10.0.0.1", .privateNetwork),
        ("64:ff9b::a9fe:a9fe", .linkLocal), ("64:ff9b::10.0.0.1", .privateNetwork),
        ("2002:7f00:1::", .loopback), ("2002:c0a8:0101::1", .privateNetwork), ("::ffff:0.0.0.0", .unspecified),
    ])
    func internalAddressesAreInTheirRange(_ text: String, _ expected: AddressRange) {
        #expect(range(text) == expected, "\(text)")
    }

    @Test(arguments: [
        "1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "126.255.255.255", "128.0.0.1", "172.15.255.255",
        "172.32.0.0", "192.167.255.255", "192.169.0.0", "169.253.255.255", "169.255.0.0", "100.63.255.255",
        "100.128.0.0", "192.0.1.1", "198.17.255.255", "198.20.0.0", "223.255.255.255", "93.184.216.34",
        "2606:4700:4700::1111", "2001:4860:4860::8888", "2a00:1450:4001::1", "::ffff:8.8.8.8", "64:ff9b::808:808",
        "2002:0808:0808::1", "fbff::1", "fe00::1",
    ])
    func publicAddressesAreInNone(_ text: String) {
        #expect(range(text) == nil, "\(text)")
    }

    @Test func onlyStrictAddressesParse() {
        for text in ["localhost", "example.com", "127.1", "0x7f.0.0.1", "2130706433", "1.2.3.4.5", "::1%lo", "[::1", ""] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress("10.0.0.1")?.bytes == [10, 0, 0, 1])
        #expect(IPAddress("[2001:db8::1]")?.description == "2001:db8::1")
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test func allowedHostsMatchAsURLsSpellThem() {
        let r = SourceRestriction(allowedHosts: ["Lists.Example.com", "[2001:db8::1]", "10.0.0.5"], allowPrivateAddresses: false)
        #expect(r.allows(host: "lists.example.com") && r.allows(host: "LISTS.example.com.") && r.allows(host: "[2001:db8::1]"))
        #expect(r.allows(host: "10.0.0.5"))
        #expect(!r.allows(host: "example.com") && !r.allows(host: "evil.lists.example.com") && !r.allows(host: "10.0.0.6"))
        #expect(r.refusedRange(of: IPAddress("10.0.0.5")!) == .privateNetwork)
        let open = SourceRestriction(allowedHosts: ["x"], allowPrivateAddresses: true)
        #expect(open.refusedRange(of: IPAddress("127.0.0.1")!) == nil)
    }
}
