import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension TestHTTPServer {
    /// What the server does with a request for one path.
    enum Reply: Sendable {
        /// A status with a body and a correct Content-Length.
        case status(Int, body: [UInt8])
        /// 200 with the body sent as `Transfer-Encoding: chunked` (length not announced).
        case chunked(body: [UInt8])
        /// 200 with no length at all: the body ends when the server closes the connection.
        case untilClose(body: [UInt8])
        /// 200 with no length, streaming bytes until the client hangs up (or 256 MiB, as a
        /// safety stop). Only a cap enforced while receiving survives this.
        case endless
        /// 302 to `location`; `{origin}` in it becomes this server's own `http://127.0.0.1:PORT`.
        case redirect(to: String)
        /// Reads the request and never answers; the connection stays open until the client
        /// gives up.
        case silent
        /// Holds the answer until the test opens `gate`, then sends `reply`: a source exactly as
        /// slow as the test needs, with no timeout to wait out.
        indirect case held(HoldGate, then: Reply)
        /// Notes in `gate` whether it was open when this request arrived, then sends `reply`.
        indirect case noting(HoldGate, then: Reply)

        /// A 200 JSON reply.
        static func json(_ text: String) -> Reply {
            .status(200, body: Array(text.utf8))
        }

        /// - Parameter origin: this server's `http://127.0.0.1:PORT`.
        func write(to fd: Int32, origin: String = "") {
            switch self {
            case .status(let code, let body):
                _ = LoopbackSocket.sendAll(fd, head(code, ["Content-Length: \(body.count)"]) + body)
            case .chunked(let body):
                guard LoopbackSocket.sendAll(fd, head(200, ["Transfer-Encoding: chunked"])) else { return }
                var offset = 0
                while offset < body.count {
                    let piece = Array(body[offset..<min(offset + 4096, body.count)])
                    let frame = Array((String(piece.count, radix: 16) + "\r\n").utf8) + piece + Array("\r\n".utf8)
                    guard LoopbackSocket.sendAll(fd, frame) else { return }
                    offset += piece.count
                }
                _ = LoopbackSocket.sendAll(fd, Array("0\r\n\r\n".utf8))
            case .untilClose(let body):
                _ = LoopbackSocket.sendAll(fd, head(200, []) + body)
            case .endless:
                guard LoopbackSocket.sendAll(fd, head(200, [])) else { return }
                let block = [UInt8](repeating: UInt8(ascii: "x"), count: 16_384)
                for _ in 0..<(256 * 64) {
                    guard LoopbackSocket.sendAll(fd, block) else { return }
                }
            case .redirect(let location):
                let target = location.replacingOccurrences(of: "{origin}", with: origin)
                _ = LoopbackSocket.sendAll(fd, head(302, ["Location: \(target)", "Content-Length: 0"]))
            case .silent:
                LoopbackSocket.waitForPeerClose(fd)
            case .held(let gate, let reply):
                gate.wait()
                reply.write(to: fd, origin: origin)
            case .noting(let gate, let reply):
                gate.note()
                reply.write(to: fd, origin: origin)
            }
        }

        private func head(_ status: Int, _ headers: [String]) -> [UInt8] {
            let lines = ["HTTP/1.1 \(status) Test", "Connection: close"] + headers
            return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }
    }
}

/// A gate that held replies wait at until the test opens it (for good). `@unchecked Sendable`:
/// `open` is guarded by `condition`.
final class HoldGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false
    private var noted: [Bool] = []
    /// The longest a reply waits, whatever the test does, so a failed test leaves no thread behind.
    static let limit: TimeInterval = 30

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether the gate was open at each `.noting` request, in arrival order.
    var notes: [Bool] {
        condition.lock()
        defer { condition.unlock() }
        return noted
    }

    func note() {
        condition.lock()
        noted.append(isOpen)
        condition.unlock()
    }

    func wait() {
        condition.lock()
        let deadline = Date().addingTimeInterval(Self.limit)
        while !isOpen, condition.wait(until: deadline) {}
        condition.unlock()
    }
}
