import CSysShim
import Glibc

/// The server's listening socket, opened by us rather than by lws so that accepting, and the
/// first read of every connection, stay in the server's hands (see its `FrontDoor`).
///
/// Binding follows what `ServerConfig.host` has always meant: `""`, `0.0.0.0` all IPv4
/// interfaces; `::` all interfaces (IPv6, and IPv4 through mapped addresses); `localhost`
/// 127.0.0.1; an IPv4 or IPv6 literal that address; anything else an interface name (its first
/// IPv4 address, or IPv6 when the name ends the search without one). Port 0 asks for a free port.
package struct ListenSocket {
    package let fd: Int32
    /// The bound port (the real one when 0 was asked for).
    package let port: Int

    /// Pending connections the kernel keeps for us (it caps this at net.core.somaxconn).
    static let backlog: Int32 = 4096

    /// Why a socket could not listen.
    package enum OpenError: Error {
        /// `host` is neither an address nor a network interface.
        case unresolvable
        /// Another process listens on the port (EADDRINUSE).
        case inUse
        /// The system refused, for this reason (`strerror`).
        case refused(String)
    }

    package static func open(host: String, port: Int) throws(OpenError) -> ListenSocket {
        guard let address = SocketAddress.resolve(host: host, port: port) else { throw .unresolvable }
        let fd = socket(Int32(address.family), Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .refused(String(cString: strerror(errno))) }
        var one: Int32 = 1
        // As lws did: a restart does not wait for the old connections' TIME_WAIT to end.
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockaddr { bind(fd, $0, $1) } == 0 && listen(fd, backlog) == 0
        guard bound else {
            let e = errno
            Glibc.close(fd)
            if e == EADDRINUSE { throw .inUse }
            throw .refused(String(cString: strerror(e)))
        }
        return ListenSocket(fd: fd, port: boundPort(fd) ?? port)
    }

    package func close() { Glibc.close(fd) }

    /// Accepts one pending connection, non-blocking and close-on-exec (`accept4`, which Glibc's
    /// module does not declare): its descriptor, with the peer's address in `peer`; or -1 with
    /// `errno` set (EAGAIN: none pending).
    package func accept(peer: inout sockaddr_storage) -> Int32 {
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { ldsys_accept(fd, $0, &length) }
        }
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafeBytes(of: &storage) { raw in
            switch family {
            case AF_INET: return Int(UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port))
            case AF_INET6: return Int(UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port))
            default: return nil
            }
        }
    }
}

/// An IPv4 or IPv6 socket address to bind.
struct SocketAddress {
    private var storage = sockaddr_storage()
    private(set) var family: sa_family_t = 0
    private var length: socklen_t = 0

    static func resolve(host: String, port: Int) -> SocketAddress? {
        guard let p = UInt16(exactly: port) else { return nil }
        switch host {
        case "", "0.0.0.0": return ipv4("0.0.0.0", p)
        case "localhost": return ipv4("127.0.0.1", p)
        default: break
        }
        if host.contains(":") { return ipv6(host, p) }
        return ipv4(host, p) ?? interface(host, p)
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var s = storage
        return withUnsafePointer(to: &s) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) } }
    }

    private static func ipv4(_ text: String, _ port: UInt16) -> SocketAddress? {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        guard inet_pton(AF_INET, text, &a.sin_addr) == 1 else { return nil }
        return SocketAddress(a, AF_INET)
    }

    private static func ipv6(_ text: String, _ port: UInt16) -> SocketAddress? {
        var a = sockaddr_in6()
        a.sin6_family = sa_family_t(AF_INET6)
        a.sin6_port = port.bigEndian
        guard inet_pton(AF_INET6, text, &a.sin6_addr) == 1 else { return nil }
        return SocketAddress(a, AF_INET6)
    }

    /// The first address of the interface named `name`, IPv4 preferred.
    private static func interface(_ name: String, _ port: UInt16) -> SocketAddress? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var v6: SocketAddress?
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let addr = entry.pointee.ifa_addr, String(cString: entry.pointee.ifa_name) == name else { continue }
            if Int32(addr.pointee.sa_family) == AF_INET {
                var a = UnsafeRawPointer(addr).load(as: sockaddr_in.self)
                a.sin_port = port.bigEndian
                return SocketAddress(a, AF_INET)
            }
            if Int32(addr.pointee.sa_family) == AF_INET6, v6 == nil {
                var a = UnsafeRawPointer(addr).load(as: sockaddr_in6.self)
                a.sin6_port = port.bigEndian
                v6 = SocketAddress(a, AF_INET6)
            }
        }
        return v6
    }

    private init<A>(_ address: A, _ family: Int32) {
        var a = address
        withUnsafeBytes(of: &a) { src in
            withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: src) }
        }
        self.family = sa_family_t(family)
        length = socklen_t(MemoryLayout<A>.size)
    }
}
