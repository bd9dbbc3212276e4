import Foundation

/// Tells "port in use" apart from other listen failures, for a useful one-line start error.
enum PortProbe {
    /// Whether binding `host:port` fails with EADDRINUSE right now (IPv4 or IPv6 literal).
    static func isInUse(host: String, port: Int) -> Bool {
        guard port > 0 else { return false }
        if host.contains(":") {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            guard inet_pton(AF_INET6, host, &addr.sin6_addr) == 1 else { return false }
            return bindFails(AF_INET6, &addr, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, host.isEmpty ? "0.0.0.0" : host, &addr.sin_addr) == 1 else { return false }
        return bindFails(AF_INET, &addr, socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    private static func bindFails<A>(_ family: Int32, _ addr: inout A, _ len: socklen_t) -> Bool {
        #if canImport(Glibc)
        let fd = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var one: Int32 = 1
        // Same option lws sets, so TIME_WAIT leftovers do not count as "in use".
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        return rc != 0 && errno == EADDRINUSE
    }
}
