@testable import DrawTransport
import Testing

/// Client frames as the wire carries them (RFC 6455 5.2), including the ones a client must not send.
enum ClientFrame {
    static func make(_ opcode: UInt8, _ payload: [UInt8] = [], fin: Bool = true, masked: Bool = true,
                     rsv: UInt8 = 0, claimedLength: UInt64? = nil) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
        let maskBit: UInt8 = masked ? 0x80 : 0
        let n = claimedLength ?? UInt64(payload.count)
        if n < 126 {
            out.append(maskBit | UInt8(n))
        } else if n < 65536 {
            out.append(maskBit | 126)
            out += [UInt8(n >> 8), UInt8(n & 0xFF)]
        } else {
            out.append(maskBit | 127)
            out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: n >> (8 * UInt64($0))) }
        }
        guard masked else { return out + payload }
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        return out + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
    }

    static func text(_ s: String, fin: Bool = true) -> [UInt8] { make(0x1, Array(s.utf8), fin: fin) }
    static func close(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        make(0x8, [UInt8(code >> 8), UInt8(code & 0xFF)] + reason)
    }
}

/// Every event `bytes` makes, fed in pieces of `chunk` bytes.
func readEvents(_ bytes: [UInt8], max: Int = 4096, chunk: Int = Int.max) -> [FrameReader.Event] {
    var reader = FrameReader(maxMessageBytes: max)
    var events: [FrameReader.Event] = []
    var start = 0
    while start < bytes.count {
        let end = start + min(chunk, bytes.count - start)
        bytes[start..<end].withUnsafeBytes { piece in
            var offset = 0
            while let e = reader.next(in: piece, at: &offset) { events.append(e) }
            #expect(offset == piece.count || reader.isDone)
        }
        start = end
    }
    return events
}

private func isViolation(_ events: [FrameReader.Event], _ code: UInt16) -> Bool {
    guard case .violation(let c, _, _)? = events.first else { return false }
    return c == code
}

@Suite struct FrameReaderTests {
    @Test func masksAreRemovedAndPiecesDoNotMatter() {
        let bytes = ClientFrame.text(#"{"type":"ping","id":7}"#) + ClientFrame.make(0x9, [1, 2, 3])
            + ClientFrame.make(0xA) + ClientFrame.make(0x2, [9, 9])
        let expected: [FrameReader.Event] = [.text(Array(#"{"type":"ping","id":7}"#.utf8)), .ping([1, 2, 3]), .pong, .binary]
        for chunk in 1...bytes.count { #expect(readEvents(bytes, chunk: chunk) == expected, "chunk \(chunk)") }
    }

    @Test func fragmentsAreJoinedAroundControlFrames() {
        let bytes = ClientFrame.make(0x1, Array("ab".utf8), fin: false) + ClientFrame.make(0x9, [7])
            + ClientFrame.make(0x0, Array("cd".utf8), fin: false) + ClientFrame.make(0x0, Array("e".utf8))
        #expect(readEvents(bytes) == [.ping([7]), .text(Array("abcde".utf8))])
    }

    @Test func emptyMessagesAndPayloads() {
        #expect(readEvents(ClientFrame.text("")) == [.text([])])
        #expect(readEvents(ClientFrame.make(0x9)) == [.ping([])])
        #expect(readEvents(ClientFrame.make(0x8)) == [.close(code: nil, reason: "")])
    }

    @Test func unmaskedFramesAreRefused() {
        #expect(isViolation(readEvents(ClientFrame.make(0x9, [1], masked: false)), 1002))
        #expect(isViolation(readEvents(ClientFrame.make(0x1, Array("hi".utf8), masked: false)), 1002))
    }

    @Test(arguments: [UInt8(1), 2, 4, 7])
    func reservedBitsAreRefused(_ rsv: UInt8) {
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [0x61], rsv: rsv)), 1002))
    }

    @Test(arguments: [UInt8(3), 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func reservedOpcodesAreRefused(_ opcode: UInt8) {
        #expect(isViolation(readEvents(ClientFrame.make(opcode, [1])), 1002))
    }

    @Test func controlFramesAreShortAndWhole() {
        #expect(readEvents(ClientFrame.make(0x9, Array(repeating: 1, count: 125))) == [.ping(Array(repeating: 1, count: 125))])
        #expect(isViolation(readEvents(ClientFrame.make(0x9, Array(repeating: 1, count: 126))), 1002))
        #expect(isViolation(readEvents(ClientFrame.make(0x9, Array(repeating: 1, count: 70_000))), 1002))
        #expect(isViolation(readEvents(ClientFrame.make(0x9, [1], fin: false)), 1002))
        #expect(isViolation(readEvents(ClientFrame.make(0xA, [], fin: false)), 1002))
    }

    @Test func continuationsBelongToAMessage() {
        #expect(isViolation(readEvents(ClientFrame.make(0x0, [0x61])), 1002))
        let twoStarts = ClientFrame.text("a", fin: false) + ClientFrame.text("b")
        #expect(isViolation(readEvents(twoStarts), 1002))
        let binaryInText = ClientFrame.text("a", fin: false) + ClientFrame.make(0x2, [1])
        #expect(isViolation(readEvents(binaryInText), 1002))
    }

    @Test func messagesUpToTheLimitAreFineBeyondIt1009() {
        let atLimit = String(repeating: "x", count: 100)
        #expect(readEvents(ClientFrame.text(atLimit), max: 100) == [.text(Array(atLimit.utf8))])
        #expect(isViolation(readEvents(ClientFrame.text(atLimit + "x"), max: 100), 1009))
        // The limit is on the message: fragments add up.
        let fragments = ClientFrame.text(String(repeating: "x", count: 60), fin: false)
            + ClientFrame.make(0x0, Array(repeating: 0x78, count: 41))
        #expect(isViolation(readEvents(fragments, max: 100), 1009))
        #expect(isViolation(readEvents(ClientFrame.make(0x2, Array(repeating: 0, count: 101)), max: 100), 1009))
    }

    @Test func theLengthIsCheckedBeforeAnyPayloadArrives() {
        // A header that claims 1 MiB, and no payload: refused from the header alone.
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [], claimedLength: 1 << 20)), 1009))
    }

    /// Issue 11, finding 1: FIN=0 with 1 byte, then a continuation claiming 2^63-1 bytes.
    @Test func aHugeContinuationIsTooBigNotACrash() {
        let bytes = ClientFrame.text("a", fin: false) + ClientFrame.make(0x0, [], claimedLength: UInt64(Int64.max))
        #expect(isViolation(readEvents(bytes), 1009))
        // At the very edge of Int: 1 + (2^63 - 2) bytes is exactly Int.max, allowed (and the
        // reader then waits for the payload); one more byte is too big. Neither may trap.
        let edge = ClientFrame.text("a", fin: false) + ClientFrame.make(0x0, [], claimedLength: UInt64(Int64.max) - 1)
        #expect(readEvents(edge, max: Int.max).isEmpty)
        #expect(isViolation(readEvents(bytes, max: Int.max), 1009))
    }

    @Test func aLengthWithBit63SetIsAProtocolError() {
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [], claimedLength: UInt64.max)), 1002))
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [], claimedLength: 1 << 63), max: Int.max), 1002))
    }

    @Test func textMustBeUTF8EvenAcrossFragments() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        let split = ClientFrame.make(0x1, [0x61, euro[0]], fin: false) + ClientFrame.make(0x0, [euro[1]], fin: false)
            + ClientFrame.make(0x0, [euro[2]])
        #expect(readEvents(split) == [.text([0x61] + euro)])
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x28, 0xA1]] {
            #expect(isViolation(readEvents(ClientFrame.make(0x1, bad)), 1007), "\(bad)")
        }
        // A message may not end inside a character.
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [0x61, 0xE2, 0x82])), 1007))
        #expect(isViolation(readEvents(ClientFrame.make(0x1, [0xE2], fin: false) + ClientFrame.make(0x0, [0x82])), 1007))
    }

    @Test(arguments: [UInt16(1000), 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 3999, 4000, 4999])
    func validCloseCodes(_ code: UInt16) {
        #expect(readEvents(ClientFrame.close(code, Array("bye".utf8))) == [.close(code: code, reason: "bye")])
    }

    /// Issue 11, finding 9: codes a client may not send fail the connection (1002).
    @Test(arguments: [UInt16(0), 999, 1004, 1005, 1006, 1012, 1013, 1014, 1015, 1016, 2000, 2999, 5000, 65535])
    func refusedCloseCodes(_ code: UInt16) {
        let events = readEvents(ClientFrame.close(code))
        #expect(events == [.violation(code: 1002, reason: "close code \(code) may not be sent", peerClosed: true)])
    }

    @Test func closePayloadsMustBeWellFormed() {
        #expect(readEvents(ClientFrame.make(0x8, [0x03])) == [.violation(code: 1002, reason: "close payload of 1 byte", peerClosed: true)])
        #expect(isViolation(readEvents(ClientFrame.close(1000, [0xC3, 0x28])), 1007))
        #expect(readEvents(ClientFrame.close(1000, Array("ünïcode".utf8))) == [.close(code: 1000, reason: "ünïcode")])
    }

    @Test func nothingIsReadAfterTheClientsClose() {
        let bytes = ClientFrame.close(1000) + ClientFrame.text("late") + [0xFF, 0xFF]
        #expect(readEvents(bytes) == [.close(code: 1000, reason: "")])
    }

    @Test func afterAViolationOnlyTheClientsCloseCounts() {
        // Unmasked text (1002), then frames that would each be an event, then the client's close.
        let bytes = ClientFrame.make(0x1, Array("hi".utf8), masked: false) + ClientFrame.text("x")
            + ClientFrame.make(0x9, [1]) + ClientFrame.make(0x0, [1]) + ClientFrame.close(1002)
        for chunk in [1, 3, bytes.count] {
            let events = readEvents(bytes, chunk: chunk)
            #expect(events.count == 2 && isViolation(events, 1002), "chunk \(chunk): \(events)")
            #expect(events.last == .close(code: 1002, reason: ""), "chunk \(chunk)")
        }
        // Too big: its payload is skipped by length, and the close after it is found.
        let tooBig = ClientFrame.text(String(repeating: "y", count: 300)) + ClientFrame.close(1000)
        #expect(readEvents(tooBig, max: 100, chunk: 7).last == .close(code: 1000, reason: ""))
        // A close frame that breaks a rule is still the client's close: nothing more comes.
        #expect(readEvents(ClientFrame.make(0x8, [0x03, 0xE8], masked: false))
            == [.violation(code: 1002, reason: "unmasked frame", peerClosed: true)])
    }

    @Test func awaitingTheCloseSkipsEverythingElse() {
        var reader = FrameReader(maxMessageBytes: 100)
        let bytes = ClientFrame.text("half", fin: false) + ClientFrame.make(0x9, [1])
            + ClientFrame.make(0x0, Array(repeating: 0xFF, count: 500)) + ClientFrame.make(0x1, [0xC0], masked: false)
            + ClientFrame.close(1000)
        var events: [FrameReader.Event] = []
        bytes.withUnsafeBytes { all in
            var offset = 0
            // The first fragment is read normally; then the server starts closing.
            while offset < 10, let e = reader.next(in: UnsafeRawBufferPointer(rebasing: all[0..<10]), at: &offset) { events.append(e) }
            reader.awaitClose()
            while let e = reader.next(in: all, at: &offset) { events.append(e) }
        }
        #expect(events == [.close(code: 1000, reason: "")])
        #expect(reader.isDone)
    }

    @Test func randomSplitsNeverChangeTheEvents() {
        var rng = SplitMix(seed: 11)
        var bytes: [UInt8] = []
        var expected: [FrameReader.Event] = []
        for i in 0..<200 {
            let n = Int(rng.next() % 300)
            let payload = Array(String(repeating: "é", count: n / 2).utf8)
            switch i % 4 {
            case 0: bytes += ClientFrame.make(0x1, payload); expected.append(.text(payload))
            case 1: bytes += ClientFrame.make(0x9, Array(payload.prefix(125))); expected.append(.ping(Array(payload.prefix(125))))
            case 2:
                let cut = payload.count / 2
                bytes += ClientFrame.make(0x1, Array(payload[..<cut]), fin: false) + ClientFrame.make(0x0, Array(payload[cut...]))
                expected.append(.text(payload))
            default: bytes += ClientFrame.make(0x2, payload); expected.append(.binary)
            }
        }
        var reader = FrameReader(maxMessageBytes: 4096)
        var events: [FrameReader.Event] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 1 + Int(rng.next() % 700))
            bytes[start..<end].withUnsafeBytes { piece in
                var offset = 0
                while let e = reader.next(in: piece, at: &offset) { events.append(e) }
            }
            start = end
        }
        #expect(events == expected)
    }

    /// Every connection holds one reader: it must stay a few words.
    @Test func idleReaderIsSmall() {
        #expect(MemoryLayout<FrameReader>.stride <= 56)
    }
}

/// A tiny seeded generator, so a failure reproduces.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
