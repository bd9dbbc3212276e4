import Foundation

/// Which clients share a per-address budget (room creation): the key a client's address counts
/// under.
///
/// IPv4: the address itself. IPv6: its /64 network, because one IPv6 host is usually given a
/// whole /64 and may pick any address in it, so a per-address budget would be one per address
/// the client cares to use. Anything unparsable counts as one shared "unknown" client, which is
/// the cautious answer. IPv4-mapped IPv6 addresses count as IPv4.
enum ClientAddress {
    static let unknown = "unknown"

    static func budgetKey(for address: String?) -> String {
        // The front door counts its per-address limits the same way (`PeerAddress`); an IPv4
        // client of a dual-stack listener ("::ffff:a.b.c.d") counts as its IPv4 address.
        address.flatMap { PeerAddress(text: $0) }?.description ?? unknown
    }
}
