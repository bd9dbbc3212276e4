/// One WebSocket client's write protocol as a value: what the next `SERVER_WRITEABLE` writes
/// (a pong, an idle ping, a message, the close frame), and the closing handshake around it.
/// Like Hummingbird's `WebSocketStateMachine`, each input is a `mutating func` that returns what
/// to do, and the caller (`ClientWriter`) does it; nothing here touches a socket, so every rule
/// is tested without one (`WriteStateTests`).
///
/// The order of one WRITEABLE (RFC 6455): the pong owed for the client's last ping, else the
/// idle ping owed to a silent client, else a message (private ones before the room's), else —
/// when nothing is owed any more and a close is pending — the close frame. After the client's
/// close only the server's close frame goes out (5.5.1); once both close frames are through,
/// the socket is closed.
struct WriteState {
    /// Why and how the server is closing this client.
    struct PendingClose: Equatable {
        /// The close frame's code; nil sends an empty close frame (the echo of a client close
        /// that carried no code).
        let code: UInt16?
        let reason: String
        /// Send the room messages still owed before closing (shutdown), or not (too slow,
        /// policy).
        let drainRoom: Bool

        /// The close frame's payload: the code, big-endian, then the reason cut to the 123 bytes
        /// a control frame leaves for it (our reasons are short ASCII; a cut never splits UTF-8).
        var payload: [UInt8] {
            guard let code else { return [] }
            return [UInt8(code >> 8), UInt8(code & 0xFF)] + reason.utf8.prefix(123)
        }
    }

    /// What a WRITEABLE does (`writable()`).
    enum Step: Equatable {
        /// Both close frames are through: close the socket (lws flushes what it holds first).
        case hangUp
        /// Nothing to write.
        case nothing
        /// Write this control frame.
        case pong([UInt8])
        case ping
        /// Write the next message owed, if any: a private one when `privateAllowed`, else a room
        /// message when `roomAllowed`. With none, call `noMessage()`.
        case message(privateAllowed: Bool, roomAllowed: Bool)
    }

    /// What comes after a WRITEABLE found no message to write (`noMessage()`).
    enum Closing: Equatable {
        /// Nothing pending.
        case nothing
        /// Write the close frame; then close the socket when `hangUpAfter`, else wait (bounded by
        /// a close deadline) for the client's close.
        case closeFrame([UInt8], hangUpAfter: Bool)
    }

    private(set) var closing: PendingClose?
    /// The server's close frame has been written; it now waits for the client's.
    private(set) var closeSent = false
    /// The client's close frame arrived (or its input ended): nothing more is sent but the
    /// server's close frame, and once that is written the connection is closed.
    private(set) var peerClosed = false
    /// Payload of the last ping not yet answered; a newer ping replaces it (RFC 6455 5.5.3
    /// allows answering only the most recent), so a ping flood holds at most 125 bytes.
    private(set) var pendingPong: [UInt8]?
    /// The client was silent for the idle-ping interval: a ping is owed (`IdleTracker`).
    private(set) var pingOwed = false

    /// Whether the client takes new messages (it is not being closed).
    var isOpen: Bool { closing == nil }

    // MARK: inputs

    /// The server starts closing; the first reason wins. False when a close was already under
    /// way (the caller then does nothing more). Pongs and pings owed are dropped.
    mutating func beginClose(_ close: PendingClose) -> Bool {
        guard closing == nil else { return false }
        closing = close
        pendingPong = nil
        pingOwed = false
        return true
    }

    /// A ping arrived. True when a pong is now owed (ask for WRITEABLE); a closing client's pings
    /// are not answered.
    mutating func pingReceived(_ payload: [UInt8]) -> Bool {
        guard closing == nil else { return false }
        pendingPong = payload
        return true
    }

    /// The client was silent too long. True when a ping is now owed (ask for WRITEABLE).
    mutating func idlePingDue() -> Bool {
        guard closing == nil, !peerClosed else { return false }
        pingOwed = true
        return true
    }

    /// The client's close frame arrived, or its input ended.
    mutating func peerDidClose() {
        peerClosed = true
    }

    /// One WRITEABLE: what to write first.
    mutating func writable() -> Step {
        if closeSent { return peerClosed ? .hangUp : .nothing }
        if !peerClosed, closing == nil, let pong = pendingPong {
            // Before any queued message: it answers the most recent ping, and a control frame
            // never cuts into a data frame (lws sends each message whole).
            pendingPong = nil
            return .pong(pong)
        }
        if pingOwed {
            pingOwed = false
            if !peerClosed, closing == nil { return .ping }
        }
        return .message(privateAllowed: !peerClosed, roomAllowed: !peerClosed && (closing?.drainRoom ?? true))
    }

    /// The WRITEABLE found no message to write: the close frame, if one is pending.
    mutating func noMessage() -> Closing {
        guard let closing, !closeSent else { return .nothing }
        closeSent = true
        return .closeFrame(closing.payload, hangUpAfter: peerClosed)
    }

    /// Whether WRITEABLE has anything to do beyond messages (`messagesOwed`).
    func wantsWrite(messagesOwed: Bool) -> Bool {
        if messagesOwed || pendingPong != nil || pingOwed || (closing != nil && !closeSent) { return true }
        return false
    }
}
