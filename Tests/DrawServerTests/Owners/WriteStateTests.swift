@testable import DrawServer
import Testing

/// A client's write protocol as a value (`WriteState`): what each WRITEABLE writes, and the
/// closing handshake, without a socket.
@Suite struct WriteStateTests {
    static let everything = WriteState.Step.message(privateAllowed: true, roomAllowed: true)

    @Test func aPongGoesBeforeAnIdlePingAndBothBeforeMessages() {
        var state = WriteState()
        do { let done = state.pingReceived([1, 2]); #expect(done) }
        do { let done = state.idlePingDue(); #expect(done) }
        #expect(state.wantsWrite(messagesOwed: false))
        do { let step = state.writable(); #expect(step == .pong([1, 2])) }
        do { let step = state.writable(); #expect(step == .ping) }
        do { let step = state.writable(); #expect(step == Self.everything) }
        #expect(!state.wantsWrite(messagesOwed: false))
    }

    @Test func aNewerPingReplacesTheOneNotYetAnswered() {
        var state = WriteState()
        _ = state.pingReceived([1])
        _ = state.pingReceived([2])
        do { let step = state.writable(); #expect(step == .pong([2])) }
        do { let step = state.writable(); #expect(step == Self.everything) }
    }

    @Test func closingDropsOwedControlFramesAndTheFirstReasonWins() {
        var state = WriteState()
        _ = state.pingReceived([9])
        _ = state.idlePingDue()
        do { let done = state.beginClose(.init(code: 4408, reason: "too slow", drainRoom: false)); #expect(done) }
        do { let done = state.beginClose(.init(code: 1001, reason: "later", drainRoom: true)); #expect(!done) }
        do { let done = state.pingReceived([3]); #expect(!done, "a closing client's pings are not answered") }
        do { let done = state.idlePingDue(); #expect(!done) }
        do { let step = state.writable(); #expect(step == .message(privateAllowed: true, roomAllowed: false), "private messages (the error) still go") }
        do { let step = state.noMessage(); #expect(step == .closeFrame([0x11, 0x38] + Array("too slow".utf8), hangUpAfter: false)) }
        do { let step = state.writable(); #expect(step == .nothing, "waits for the client's close") }
        state.peerDidClose()
        do { let step = state.writable(); #expect(step == .hangUp) }
    }

    @Test func aShutdownCloseDrainsTheRoomFirst() {
        var state = WriteState()
        _ = state.beginClose(.init(code: 1001, reason: "server shutting down", drainRoom: true))
        do { let step = state.writable(); #expect(step == Self.everything) }
        #expect(state.wantsWrite(messagesOwed: false), "the close frame is still owed")
    }

    @Test func afterTheClientsCloseOnlyTheEchoGoesOutThenTheSocketCloses() {
        var state = WriteState()
        state.peerDidClose()
        _ = state.pingReceived([1])
        do { let step = state.writable(); #expect(step == .message(privateAllowed: false, roomAllowed: false)) }
        do { let step = state.noMessage(); #expect(step == .nothing, "nothing pending until the server closes") }
        _ = state.beginClose(.init(code: nil, reason: "", drainRoom: false))
        do { let step = state.writable(); #expect(step == .message(privateAllowed: false, roomAllowed: false)) }
        do { let step = state.noMessage(); #expect(step == .closeFrame([], hangUpAfter: true), "an empty echo, then the socket closes") }
        do { let step = state.noMessage(); #expect(step == .nothing, "one close frame only") }
    }

    @Test func aCloseReasonIsCutToWhatAControlFrameHolds() {
        let close = WriteState.PendingClose(code: 1008, reason: String(repeating: "x", count: 300), drainRoom: false)
        #expect(close.payload.count == 125)
    }
}
