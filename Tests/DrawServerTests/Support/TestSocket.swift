import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking TCP socket with a receive timeout, for talking to the server like a real client.
/// Written from POSIX alone: it must not share code with the server it tests.
final class TestSocket {
    enum Failure: Error, CustomStringConvertible {
        case connect(Int32), send, timeout, closed
        var description: String {
            switch self {
            case .connect(let e): return "connect failed (errno \(e))"
            case .send: return "send failed"
            case .timeout: return "timed out waiting for data"
            case .closed: return "connection closed by peer"
            }
        }
    }

    private let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var eof = false

    /// - Parameters:
    ///   - receiveBuffer: a small SO_RCVBUF makes a client that stops reading back up the server
    ///     quickly (slow-client tests).
    ///   - source: the loopback address to connect from (`127.0.0.2`: another client address).
    init(port: Int, timeoutSeconds: Int = 5, receiveBuffer: Int32? = nil, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        let fd = self.fd
        func call(_ address: String, _ port: Int, _ op: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            addr.sin_addr.s_addr = inet_addr(address)
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { op(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard rc == 0 else {
                let e = errno
                Glibc.close(fd)
                throw Failure.connect(e)
            }
        }
        if let source { try call(source, 0, Glibc.bind) }
        try call("127.0.0.1", port, Glibc.connect)
        var tv = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { Glibc.close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure.send }
            off += n
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads exactly `n` bytes.
    func read(_ n: Int) throws -> [UInt8] {
        while buffer.count < n { try fill() }
        let out = Array(buffer[..<n])
        buffer.removeFirst(n)
        return out
    }

    /// Reads up to and including `delimiter`.
    func read(until delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let r = firstRange(of: delimiter) {
                let out = Array(buffer[..<r])
                buffer.removeFirst(r)
                return out
            }
            try fill()
        }
    }

    /// Reads until the peer closes.
    func readToEnd() throws -> [UInt8] {
        while !eof { try fill() }
        defer { buffer.removeAll() }
        return buffer
    }

    private func firstRange(of d: [UInt8]) -> Int? {
        guard buffer.count >= d.count else { return nil }
        for i in 0...(buffer.count - d.count) where buffer[i..<(i + d.count)].elementsEqual(d) {
            return i + d.count
        }
        return nil
    }

    private func fill() throws {
        if eof { throw Failure.closed }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if n == 0 { eof = true; throw Failure.closed }
        if n < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
        buffer += chunk[..<n]
    }
}
