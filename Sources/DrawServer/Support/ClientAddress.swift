import Foundation

/// Which clients share a per-address budget (room creation): the key a client's address counts
/// under.
///
/// IPv4: the address itself. IPv6: its /64 network, because one IPv6 host is usually given a
/// whole /64 and may pick any address in it, so a per-address budget would be one per address
/// the client cares to use. Anything unparsable counts as one shared "unknown" client, which is
/// the cautious answer.
enum ClientAddress {
    static let unknown = "unknown"

    static func budgetKey(for address: String?) -> String {
        guard let address else { return unknown }
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return unknown }
        let bytes = withUnsafeBytes(of: v6) { Array($0.prefix(8)) }
        var groups: [String] = []
        for i in stride(from: 0, to: 8, by: 2) {
            groups.append(String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16))
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
