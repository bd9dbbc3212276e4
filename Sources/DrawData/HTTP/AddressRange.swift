/// The ranges of addresses a room's list URL may not reach unless the operator allows private
/// sources (`--allow-private-sources`), and which of them an address is in.
///
/// Why: a room's list URLs are a host's, not the operator's. Fetched blindly, they would let any
/// host make the server request its own internal network (server-side request forgery: an admin
/// page on 127.0.0.1, a cloud metadata service on 169.254.169.254) and show what came back or how
/// it failed. The check runs on the address curl is about to connect to (`SourceAddressGuard`),
/// so neither a DNS answer that changes between checks nor a redirect gets around it.
///
/// Pure: no I/O, unit tested with many addresses (`AddressRangeTests`).
public enum AddressRange: String, Sendable, Hashable, CaseIterable {
    /// `0.0.0.0/8`, `::/128`: "this host"; connecting there reaches the local machine.
    case unspecified
    /// `127.0.0.0/8`, `::1/128`.
    case loopback
    /// RFC 1918: `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`; and IPv6 site-local `fec0::/10`.
    case privateNetwork = "private"
    /// `169.254.0.0/16` (cloud metadata services live here), `fe80::/10`.
    case linkLocal = "link-local"
    /// IPv6 unique-local `fc00::/7`.
    case uniqueLocal = "unique-local"
    /// Carrier-grade NAT, `100.64.0.0/10` (RFC 6598): the provider's internal network.
    case sharedCGNAT = "cgnat"
    /// Multicast, broadcast and the IETF's reserved and special-purpose blocks (`192.0.0.0/24`,
    /// `198.18.0.0/15`, `240.0.0.0/4`, documentation nets): nothing a list lives on.
    case reserved

    /// The refused range `address` is in, or `nil` for an ordinary public address. IPv6 forms
    /// that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`,
    /// NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by that IPv4 address.
    public static func of(_ address: IPAddress) -> AddressRange? {
        let b = address.bytes
        return b.count == 4 ? ofIPv4(b[0], b[1], b[2], b[3]) : ofIPv6(b)
    }

    private static func ofIPv4(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> AddressRange? {
        switch (a, b) {
        case (0, _): return .unspecified
        case (127, _): return .loopback
        case (10, _), (172, 16...31), (192, 168): return .privateNetwork
        case (169, 254): return .linkLocal
        case (100, 64...127): return .sharedCGNAT
        case (192, 0) where c == 0 || c == 2: return .reserved      // IETF protocol assignments, TEST-NET-1
        case (198, 18...19): return .reserved                        // benchmarking
        case (198, 51) where c == 100, (203, 0) where c == 113: return .reserved  // TEST-NET-2, -3
        case (224...255, _): return .reserved                        // multicast, 240/4, broadcast
        default: return nil
        }
    }

    private static func ofIPv6(_ b: [UInt8]) -> AddressRange? {
        let zeroTo = { (n: Int) in b[0..<n].allSatisfy { $0 == 0 } }
        if zeroTo(16) { return .unspecified }
        if zeroTo(15), b[15] == 1 { return .loopback }
        // IPv4-mapped ::ffff:0:0/96 and the deprecated IPv4-compatible ::/96.
        if zeroTo(10), (b[10] == 0xff && b[11] == 0xff) || (b[10] == 0 && b[11] == 0) {
            return ofIPv4(b[12], b[13], b[14], b[15])
        }
        // NAT64 64:ff9b::/96: the gateway connects to the embedded IPv4 address.
        if b[0] == 0x00, b[1] == 0x64, b[2] == 0xff, b[3] == 0x9b, b[4..<12].allSatisfy({ $0 == 0 }) {
            return ofIPv4(b[12], b[13], b[14], b[15])
        }
        // 6to4 2002::/16 carries an IPv4 address in bytes 2...5.
        if b[0] == 0x20, b[1] == 0x02 { return ofIPv4(b[2], b[3], b[4], b[5]) }
        switch b[0] {
        case 0xfc, 0xfd: return .uniqueLocal
        case 0xfe where b[1] & 0xc0 == 0x80: return .linkLocal       // fe80::/10
        case 0xfe where b[1] & 0xc0 == 0xc0: return .privateNetwork  // fec0::/10, site-local
        case 0xff: return .reserved                                  // multicast
        default: break
        }
        // Documentation 2001:db8::/32.
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0d, b[3] == 0xb8 { return .reserved }
        return nil
    }
}
