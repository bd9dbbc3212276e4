/// The server side of RFC 6455 framing: what a client sends, as a pure value (no I/O, no lws).
///
/// Why our own: lws 4.1 never checks the mask bit on frames a server receives, passes close
/// codes it should refuse, and drops an oversized ping without a close frame, and its sums of
/// peer-supplied lengths can overflow. The server reads a WebSocket's bytes itself and feeds
/// them here; lws only writes.
///
/// Feed bytes in any pieces with `next(in:at:)`; it returns one `Event` at a time. Rules (the
/// close code of the violation in brackets): every frame masked [1002]; RSV bits clear and
/// opcodes known [1002] (no extension is ever negotiated); control frames unfragmented and at
/// most 125 bytes [1002]; a continuation only inside a fragmented message, and no new data
/// frame inside one [1002]; a message (all its fragments) at most `maxMessageBytes`, checked
/// from the frame header before any payload is kept [1009]; text and close reasons valid UTF-8,
/// checked as the bytes arrive [1007]; a close payload is empty or a code the client may send
/// (`CloseCode.clientMaySend`) plus a reason [1002].
///
/// After a violation the reader keeps following the frame structure leniently, reporting only a
/// close frame: the server answers a violation with its own close and then waits for the
/// client's. After the client's close, nothing more is read.
///
/// Memory: a few words while idle. Text is buffered only while a message is in flight and a
/// control payload only while its frame is; both are released when the event is returned.
///
/// Peer-supplied numbers: the 64-bit frame length is only compared with what is left of the
/// limit (never added to anything), and payload counts are bounded by it. Any new arithmetic on
/// a length, count or offset from the wire must stay checked so it can neither trap nor wrap.
package struct FrameReader {
    package enum Event: Equatable {
        /// A complete text message (valid UTF-8).
        case text([UInt8])
        /// A complete binary message; its bytes are not kept (the protocol has no binary
        /// messages), but they did count against the size limit.
        case binary
        case ping([UInt8])
        case pong
        /// The client's close frame; `code` is nil when it carried no payload.
        case close(code: UInt16?, reason: String)
        /// The client broke the protocol: close with `code`. `peerClosed`: the offending frame
        /// was the client's close, so no other close will come.
        case violation(code: UInt16, reason: String, peerClosed: Bool)
    }

    enum Stage: UInt8 {
        case first, second, length, mask, payload
        /// The client's close arrived, or the framing can no longer be followed: ignore the rest.
        case done
    }

    enum Opcode {
        static let continuation: UInt8 = 0x0, text: UInt8 = 0x1, binary: UInt8 = 0x2
        static let close: UInt8 = 0x8, ping: UInt8 = 0x9, pong: UInt8 = 0xA
    }

    /// Largest message, all fragments together.
    let maxMessageBytes: Int

    // Stored properties are declared widest first so the reader packs into 56 bytes. Those the
    // frame endings read (`FrameReader+Endings.swift`) are internal, not private, for that file.

    /// While in the header: the length read so far; then the payload bytes still to come.
    private var remaining: UInt64 = 0
    /// Payload bytes of the message in flight; never above `maxMessageBytes`.
    var messageBytes = 0
    var text: [UInt8] = []
    var control: [UInt8] = []
    private var mask: UInt32 = 0
    var stage = Stage.first
    /// After a violation, or once the server closes: only look for the client's close.
    var failed = false
    /// First header byte of the current frame (FIN and opcode).
    var head: UInt8 = 0
    private var masked = false
    private var headerBytesLeft: UInt8 = 0
    private var maskIndex: UInt8 = 0
    /// Opcode of the data message in flight (text or binary), or 0 for none.
    var message: UInt8 = 0
    var utf8 = UTF8Validator()

    package init(maxMessageBytes: Int) {
        self.maxMessageBytes = max(0, maxMessageBytes)
    }

    /// Whether the client's close has been read (or the stream is past following).
    package var isDone: Bool { stage == .done }

    /// From now on only the client's close matters (the server is closing): payloads are
    /// skipped unread and unchecked, and no other event is reported.
    package mutating func awaitClose() {
        failed = true
        text = []
        control = []
    }

    /// Consumes `input` from `offset` until one event is complete (returned, `offset` just past
    /// it) or the input is used up (nil; the reader keeps any partial frame).
    package mutating func next(in input: UnsafeRawBufferPointer, at offset: inout Int) -> Event? {
        while offset < input.count, stage != .done {
            if stage == .payload {
                // remaining > 0 here, and min(...) <= input.count - offset, so the Int fits.
                let take = Int(min(remaining, UInt64(input.count - offset)))
                let event = payload(UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)]))
                offset += take
                remaining -= UInt64(take)
                // A violation inside the payload: the frame's end (if this was it) is handled
                // on the next call, in the lenient mode that only looks for a close.
                if let event { return event }
                if remaining == 0, let event = frameEnded() { return event }
                continue
            }
            let byte = input[offset]
            offset += 1
            if let event = header(byte) { return event }
        }
        return nil
    }

    // MARK: header

    var opcode: UInt8 { head & 0x0F }
    private var isControl: Bool { head & 0x08 != 0 }

    private mutating func header(_ byte: UInt8) -> Event? {
        switch stage {
        case .first:
            head = byte
            stage = .second
            return failed ? nil : checkFirstByte()
        case .second:
            masked = byte & 0x80 != 0
            let length = byte & 0x7F
            remaining = length < 126 ? UInt64(length) : 0
            headerBytesLeft = length == 126 ? 2 : 8
            stage = .length
            var event: Event?
            if !failed, !masked {
                event = violation(CloseCode.protocolError, "unmasked frame")
            } else if !failed, isControl, length > 125 {
                event = violation(CloseCode.protocolError, "control frame over 125 bytes")
            }
            // After a violation the structure is still followed (see `violation`).
            guard length < 126, stage != .done else { return event }
            let next = lengthKnown()
            return event ?? next
        case .length:
            if headerBytesLeft == 8, byte & 0x80 != 0 {
                // RFC 6455 5.2: the most significant bit of a 64-bit length must be 0. Such a
                // frame could never end anyway: nothing after it is read.
                if failed {
                    stage = .done
                    return nil
                }
                return violation(CloseCode.protocolError, "frame length has its most significant bit set", following: false)
            }
            // At most 8 shifts of one byte each: the value fits in 64 bits, and `<<` cannot trap.
            remaining = remaining << 8 | UInt64(byte)
            headerBytesLeft -= 1
            return headerBytesLeft == 0 ? lengthKnown() : nil
        case .mask:
            mask = mask << 8 | UInt32(byte)
            headerBytesLeft -= 1
            return headerBytesLeft == 0 ? payloadBegins() : nil
        case .payload, .done:
            return nil
        }
    }

    private mutating func checkFirstByte() -> Event? {
        if head & 0x70 != 0 { return violation(CloseCode.protocolError, "reserved bits set") }
        switch opcode {
        case Opcode.continuation:
            if message == 0 { return violation(CloseCode.protocolError, "continuation frame without a message") }
        case Opcode.text, Opcode.binary:
            if message != 0 { return violation(CloseCode.protocolError, "new message inside a fragmented message") }
            message = opcode
        case Opcode.close, Opcode.ping, Opcode.pong:
            if head & 0x80 == 0 { return violation(CloseCode.protocolError, "fragmented control frame") }
        default:
            return violation(CloseCode.protocolError, "reserved opcode")
        }
        return nil
    }

    private mutating func lengthKnown() -> Event? {
        var event: Event?
        // The peer's length is compared with what is left of the limit, never added to the
        // count: messageBytes <= maxMessageBytes always, so the subtraction cannot go negative.
        if !failed, !isControl, remaining > UInt64(maxMessageBytes - messageBytes) {
            event = violation(CloseCode.messageTooBig, "message too big")
        }
        mask = 0
        if masked {
            headerBytesLeft = 4
            stage = .mask
            return event
        }
        let next = payloadBegins() // nil when there was a violation: the frame has payload
        return event ?? next
    }

    private mutating func payloadBegins() -> Event? {
        maskIndex = 0
        stage = .payload
        return remaining == 0 ? frameEnded() : nil
    }

    // MARK: payload

    /// Keeps what the frame's kind needs of `chunk`: text and control payloads, unmasked.
    private mutating func payload(_ chunk: UnsafeRawBufferPointer) -> Event? {
        if failed {
            // Only a close payload matters now, and only its first 125 bytes (both counts are
            // bounded by the input, so the sum cannot overflow).
            if opcode == Opcode.close, control.count + chunk.count <= 125 {
                maskIndex = Self.unmask(chunk, masked: masked, mask: mask, from: maskIndex, into: &control)
            }
            return nil
        }
        if isControl {
            // At most 125 bytes: checked in the header.
            maskIndex = Self.unmask(chunk, masked: masked, mask: mask, from: maskIndex, into: &control)
            return nil
        }
        // Bounded by the limit: the whole frame was checked against it in `lengthKnown`.
        messageBytes += chunk.count
        guard message == Opcode.text else {
            // maskIndex < 4 and chunk.count <= the read size: the sum cannot overflow.
            maskIndex = UInt8(truncatingIfNeeded: Int(maskIndex) + chunk.count) & 3
            return nil
        }
        let start = text.count
        maskIndex = Self.unmask(chunk, masked: masked, mask: mask, from: maskIndex, into: &text)
        if !utf8.feed(text[start...]) { return violation(CloseCode.invalidPayload, "text is not UTF-8") }
        return nil
    }

    /// Appends `chunk` to `out`, unmasked when the frame is masked; returns the mask position
    /// after it. Static so that `out` can be one of the reader's own buffers.
    private static func unmask(_ chunk: UnsafeRawBufferPointer, masked: Bool, mask: UInt32, from index: UInt8,
                               into out: inout [UInt8]) -> UInt8 {
        guard masked else {
            out.append(contentsOf: chunk)
            return index
        }
        var k = index
        for byte in chunk {
            out.append(byte ^ UInt8(truncatingIfNeeded: mask >> (24 - 8 * UInt32(k))))
            k = (k + 1) & 3
        }
        return k
    }
}
