/// The rules a room's list URLs are fetched under (issue 15), on top of the operator's fetch
/// configuration: only http and https, only the hosts the operator lists (checked again on every
/// redirect), and, unless the operator allows it, no private, loopback or otherwise internal
/// address (checked on the address curl connects to, `SourceAddressGuard`). No proxy from the
/// environment and no reused connection, so the address checked is the address used.
public struct SourceRestriction: Sendable, Hashable {
    /// Host names and addresses, lowercase, IPv6 without brackets. Any port.
    public let allowedHosts: Set<String>
    /// `--allow-private-sources`: internal addresses are fetched like any other.
    public let allowPrivateAddresses: Bool
    /// Addresses treated as public whatever their range (tests only: a loopback server standing
    /// in for a public one, so a redirect from it to a private address can be tested).
    let exemptAddresses: Set<IPAddress>

    public init(allowedHosts: some Sequence<String>, allowPrivateAddresses: Bool) {
        self.init(allowedHosts: allowedHosts, allowPrivateAddresses: allowPrivateAddresses, exemptAddresses: [])
    }

    init(allowedHosts: some Sequence<String>, allowPrivateAddresses: Bool, exemptAddresses: Set<IPAddress>) {
        self.allowedHosts = Set(allowedHosts.map(Self.normalized))
        self.allowPrivateAddresses = allowPrivateAddresses
        self.exemptAddresses = exemptAddresses
    }

    /// Whether `host` (as in a URL: any case, IPv6 in brackets) is one of the allowed hosts.
    public func allows(host: String) -> Bool {
        allowedHosts.contains(Self.normalized(host))
    }

    /// The refused range `address` is in, unless private addresses are allowed (or it is exempt).
    func refusedRange(of address: IPAddress) -> AddressRange? {
        guard !allowPrivateAddresses, !exemptAddresses.contains(address) else { return nil }
        return AddressRange.of(address)
    }

    /// Lowercase, without IPv6 brackets or a trailing dot (`Example.com.` is `example.com`).
    static func normalized(_ host: String) -> String {
        var h = Substring(host.lowercased())
        if h.hasPrefix("["), h.hasSuffix("]") { h = h.dropFirst().dropLast() }
        if h.hasSuffix("."), h.count > 1 { h = h.dropLast() }
        return String(h)
    }
}
