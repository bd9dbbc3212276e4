#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Plain POSIX TCP sockets on 127.0.0.1, for the test server and for finding a closed port.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: errno \(code)" }
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel picks (port 0), and that port.
    static func bindEphemeral() throws -> (fd: Int32, port: UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(call: "socket", code: errno) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            close(fd)
            throw Failure(call: "bind", code: code)
        }
        return (fd, UInt16(bigEndian: addr.sin_port))
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, read back, then closed, so a connect
    /// to it is refused.
    static func closedPort() throws -> UInt16 {
        let (fd, port) = try bindEphemeral()
        close(fd)
        return port
    }

    /// Sends all of `bytes`; false once the peer is gone. MSG_NOSIGNAL: a client that hangs up
    /// mid-body (as curl does at the size cap) must give EPIPE, not kill the test run with SIGPIPE.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Reads until the end of the request head (`\r\n\r\n`), or just the first bytes if they
    /// cannot start an HTTP request (a TLS handshake never sends `\r\n\r\n`); `nil` if the peer
    /// closed first.
    static func readRequestHead(_ fd: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65_536 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            head += buffer[..<n]
            if !(head[0] >= UInt8(ascii: "A") && head[0] <= UInt8(ascii: "Z")) { break }
            if String(decoding: head, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Blocks until the peer closes (or anything arrives and then it closes).
    static func waitForPeerClose(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return }
        }
    }
}
