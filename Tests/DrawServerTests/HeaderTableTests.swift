import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// `ServerConfig.headerTables` bounds how many handshakes are parsed at once (each holds a
    /// ~4 KiB table); the others must wait their turn, not fail.
    @Suite struct HeaderTableTests {
        @Test func handshakesBeyondTheHeaderTablesWaitAndThenSucceed() throws {
            let running = try RunningServer(configure: { $0.headerTables = 2 })
            defer { running.stop() }
            let request = "GET /ws/lobby HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            let rest = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            // Six half-sent handshakes: the first two hold both tables, the others queue.
            let sockets = try (0..<6).map { _ in try TestSocket(port: running.port) }
            for s in sockets { try s.send(request) }
            for s in sockets { try s.send(rest) }
            for s in sockets {
                let head = String(decoding: try s.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
                #expect(head.hasPrefix("HTTP/1.1 101"))
                // The first frame: a text frame (0x81) whose payload is the snapshot.
                let frame = try s.read(2)
                #expect(frame[0] == 0x81)
                let length = Int(frame[1] & 0x7f)
                let size = length == 126 ? try s.read(2).reduce(0) { $0 << 8 | Int($1) } : length
                let payload = String(decoding: try s.read(size), as: UTF8.self)
                #expect(payload.hasPrefix(#"{"type":"snapshot""#))
            }
        }
    }
}
