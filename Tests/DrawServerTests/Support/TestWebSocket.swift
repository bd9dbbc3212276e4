import Foundation

/// A minimal RFC 6455 client: handshake, masked client frames, unmasked server frames,
/// fragment reassembly, close codes. Just enough to watch a draw.
final class TestWebSocket {
    enum Frame: Equatable {
        case text(String)
        case binary([UInt8])
        case close(code: Int?, reason: String)
    }

    private let socket: TestSocket
    /// The subprotocol the server chose, if any.
    let subprotocol: String?

    /// Connects and upgrades. Throws `HandshakeRefused` with the HTTP status when refused.
    init(port: Int, path: String, subprotocol offer: String? = nil, origin: String? = nil,
         receiveBuffer: Int32? = nil) throws {
        socket = try TestSocket(port: port, receiveBuffer: receiveBuffer)
        var key = [UInt8](repeating: 0, count: 16)
        for i in key.indices { key[i] = UInt8.random(in: 0...255) }
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: \(Data(key).base64EncodedString())\r\nSec-WebSocket-Version: 13\r\n"
        if let offer { request += "Sec-WebSocket-Protocol: \(offer)\r\n" }
        if let origin { request += "Origin: \(origin)\r\n" }
        request += "\r\n"
        try socket.send(request)
        let head = String(decoding: try socket.read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        guard status == 101 else { throw HandshakeRefused(status: status) }
        subprotocol = lines.first { $0.lowercased().hasPrefix("sec-websocket-protocol:") }
            .map { String($0.split(separator: ":", maxSplits: 1)[1]).trimmingCharacters(in: .whitespaces) }
    }

    struct HandshakeRefused: Error, Equatable { let status: Int }

    /// Sends a masked frame (clients must mask).
    func send(opcode: UInt8, _ payload: [UInt8], fin: Bool = true) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let n = payload.count
        if n < 126 {
            frame.append(0x80 | UInt8(n))
        } else if n < 65536 {
            frame.append(0x80 | 126)
            frame += [UInt8(n >> 8), UInt8(n & 0xff)]
        } else {
            frame.append(0x80 | 127)
            for s in stride(from: 56, through: 0, by: -8) { frame.append(UInt8((n >> s) & 0xff)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    func send(text: String) throws { try send(opcode: 1, Array(text.utf8)) }

    /// The next data or close frame (answers pings, reassembles fragments).
    func receive() throws -> Frame {
        var message: [UInt8] = []
        var messageOpcode: UInt8 = 0
        while true {
            let h = try socket.read(2)
            let fin = h[0] & 0x80 != 0, opcode = h[0] & 0x0f
            var len = Int(h[1] & 0x7f)
            if len == 126 {
                let b = try socket.read(2); len = Int(b[0]) << 8 | Int(b[1])
            } else if len == 127 {
                len = try socket.read(8).reduce(0) { $0 << 8 | Int($1) }
            }
            precondition(h[1] & 0x80 == 0, "server frames must not be masked")
            let payload = try socket.read(len)
            switch opcode {
            case 0x8:
                let code = payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil
                return .close(code: code, reason: String(decoding: payload.dropFirst(2), as: UTF8.self))
            case 0x9:
                try send(opcode: 0xA, payload)
                continue
            case 0xA:
                continue
            default:
                if opcode != 0 { messageOpcode = opcode }
                message += payload
                guard fin else { continue }
                return messageOpcode == 2 ? .binary(message) : .text(String(decoding: message, as: UTF8.self))
            }
        }
    }

    /// Reads until a close frame arrives and returns its code (nil: closed without one).
    func receiveClose() throws -> (code: Int?, reason: String) {
        while true {
            if case .close(let code, let reason) = try receive() { return (code, reason) }
        }
    }

    /// Reads messages until one of `type` arrives (skipping others) and returns it.
    func receive(type: String) throws -> [String: Any] {
        while true {
            let m = try receiveJSON()
            if m["type"] as? String == type { return m }
        }
    }

    /// The next text message as a JSON object.
    func receiveJSON() throws -> [String: Any] {
        let frame = try receive()
        guard case .text(let s) = frame,
              let obj = try JSONSerialization.jsonObject(with: Data(s.utf8)) as? [String: Any] else {
            throw UnexpectedFrame(frame: frame)
        }
        return obj
    }

    struct UnexpectedFrame: Error { let frame: Frame }
}
