/// The end of a frame: the event it makes (a message, a control frame, the client's close) and
/// the violations found there. Pure, like the rest of `FrameReader`.
extension FrameReader {
    /// The current frame is complete: the event it makes, if any.
    mutating func frameEnded() -> Event? {
        stage = .first
        let fin = head & 0x80 != 0
        if failed {
            guard opcode == Opcode.close else { return nil }
            stage = .done
            let payload = control
            control = []
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            return .close(code: code, reason: "")
        }
        switch opcode {
        case Opcode.close:
            let payload = control
            control = []
            return closeFrame(payload)
        case Opcode.ping:
            let payload = control
            control = []
            return .ping(payload)
        case Opcode.pong:
            control = []
            return .pong
        default:
            guard fin else { return nil }
            let kind = message
            message = 0
            messageBytes = 0
            guard kind == Opcode.text else { return .binary }
            let complete = utf8.isComplete
            utf8.reset()
            let bytes = text
            text = []
            return complete ? .text(bytes) : violation(CloseCode.invalidPayload, "text is not UTF-8")
        }
    }

    private mutating func closeFrame(_ payload: [UInt8]) -> Event {
        if payload.isEmpty {
            stage = .done
            return .close(code: nil, reason: "")
        }
        guard payload.count >= 2 else {
            return violation(CloseCode.protocolError, "close payload of 1 byte", peerClosed: true)
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard CloseCode.clientMaySend(code) else {
            return violation(CloseCode.protocolError, "close code \(code) may not be sent", peerClosed: true)
        }
        let reason = payload[2...]
        guard UTF8Validator.isValid(reason) else {
            return violation(CloseCode.invalidPayload, "close reason is not UTF-8", peerClosed: true)
        }
        stage = .done
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// Reports a violation. With `following` the reader goes on through the frame structure
    /// (lengths stay meaningful), looking only for the client's close; without, or when the
    /// offending frame is the client's close, it reads nothing more.
    mutating func violation(_ code: UInt16, _ reason: String, peerClosed: Bool = false,
                                    following: Bool = true) -> Event {
        let closed = peerClosed || opcode == Opcode.close
        failed = true
        text = []
        control = []
        if closed || !following { stage = .done }
        return .violation(code: code, reason: reason, peerClosed: closed)
    }
}
