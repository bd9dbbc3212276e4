import Glibc

/// Whom a connection is counted against in per-address limits: an IPv4 address, or the /64
/// prefix of an IPv6 one (a single host usually holds a whole /64, so counting its addresses
/// one by one would count nothing). IPv4-mapped IPv6 addresses count as their IPv4 address.
struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    /// IPv4: 0 and the address; IPv6: the /64 prefix and a marker (never a valid IPv4 pair).
    let high: UInt64
    let low: UInt64

    static func ipv4(_ bytes: (UInt8, UInt8, UInt8, UInt8)) -> PeerAddress {
        PeerAddress(high: 0, low: UInt64(bytes.0) << 24 | UInt64(bytes.1) << 16 | UInt64(bytes.2) << 8 | UInt64(bytes.3))
    }

    /// From the 16 bytes of an IPv6 address.
    static func ipv6(_ b: [UInt8]) -> PeerAddress {
        precondition(b.count == 16)
        if b[0..<10].allSatisfy({ $0 == 0 }), b[10] == 0xFF, b[11] == 0xFF { return ipv4((b[12], b[13], b[14], b[15])) }
        let prefix = b[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return PeerAddress(high: prefix, low: 1 << 63)
    }

    /// The peer of an accepted socket, from the address `accept4` filled in; `nil` for other
    /// families (a Unix socket, say), which are then not counted per address.
    init?(_ storage: sockaddr_storage) {
        var s = storage
        switch Int32(s.ss_family) {
        case AF_INET:
            let a = withUnsafeBytes(of: &s) { $0.load(as: sockaddr_in.self) }
            let b = withUnsafeBytes(of: a.sin_addr) { Array($0) }
            self = .ipv4((b[0], b[1], b[2], b[3]))
        case AF_INET6:
            let a = withUnsafeBytes(of: &s) { $0.load(as: sockaddr_in6.self) }
            self = .ipv6(withUnsafeBytes(of: a.sin6_addr) { Array($0) })
        default:
            return nil
        }
    }

    /// From an address as text (`203.0.113.9`, `2001:db8::1`, `::ffff:203.0.113.9`); `nil` when
    /// it is neither.
    init?(text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let b = withUnsafeBytes(of: v4) { Array($0) }
            self = .ipv4((b[0], b[1], b[2], b[3]))
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self = .ipv6(withUnsafeBytes(of: v6) { Array($0) })
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    var description: String {
        if low & (1 << 63) == 0 { return "\(low >> 24 & 0xFF).\(low >> 16 & 0xFF).\(low >> 8 & 0xFF).\(low & 0xFF)" }
        let groups = stride(from: 48, through: 0, by: -16).map { String(high >> UInt64($0) & 0xFFFF, radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
