import Glibc

/// An IPv4 or IPv6 address as its bytes (4 or 16, network order): what a room source's host
/// names, or what curl is about to connect to.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// `nil` unless `bytes` has 4 or 16 elements.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses dotted IPv4 (`10.0.0.1`) or IPv6 text (`::1`, `::ffff:10.0.0.1`; brackets, as in a
    /// URL's host, are allowed; a zone `%eth0` is not). `nil` for anything else, host names included.
    /// Only the strict forms `inet_pton` accepts: `0x7f.1`, `2130706433` and other shorthand that
    /// some resolvers take are not addresses here, so they go through DNS and the connect check.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            self.bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(text), &v6) == 1 {
            self.bytes = withUnsafeBytes(of: &v6) { Array($0) }
            return
        }
        return nil
    }

    public var isIPv4: Bool { bytes.count == 4 }

    /// The usual text form (`inet_ntop`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var copy = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(cString: buffer)
    }
}
