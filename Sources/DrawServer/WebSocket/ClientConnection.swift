import DrawCore
import DrawPresentation
import DrawTransport

/// One WebSocket client. Touched only on the service thread.
///
/// Ownership: lws' per-session slot holds a +1 reference (`Unmanaged.passRetained`) taken in
/// `LWS_CALLBACK_ESTABLISHED` and released in `LWS_CALLBACK_CLOSED` (or, as a fallback, in
/// `LWS_CALLBACK_WSI_DESTROY`); its `connection` is valid exactly that long.
final class ClientConnection {
    /// Why and how the server is closing this client.
    struct PendingClose {
        /// The close frame's code; nil sends an empty close frame (the echo of a client close
        /// that carried no code).
        let code: UInt16?
        let reason: String
        /// Send the room messages still owed before closing (shutdown), or not (too slow,
        /// policy).
        let drainRoom: Bool
    }

    let connection: Connection
    /// The protocol version the client chose with its subprotocol (`WireVersion`).
    let version: WireVersion
    /// The room this client watches; `nil` for a client of an unknown room (about to be closed).
    var room: Room?
    /// Position in `room.members`, kept for O(1) removal; -1 when not a member.
    var memberIndex = -1
    /// Sequence number of the next room broadcast this client has to send.
    var cursor: UInt64 = 0
    /// Messages for this client only (snapshot, error, pong); sent before room messages.
    var privateQueue = FIFO<OutboundMessage>()
    private(set) var closing: PendingClose?

    var strikes = 0
    var bucket: TokenBucket

    /// The client's input, parsed as it is read (`WebSocketInbound+Input`).
    var reader: FrameReader
    /// The socket the server reads this client's input from; -1 when it does not (not yet,
    /// or no longer: the peer hung up or the connection is closed).
    var inputFD: Int32 = -1
    /// How its messages are sent (`DirectOutput`): set with the input, stopped with it.
    var output = DirectOutput()
    /// Payload of the last ping not yet answered; a newer ping replaces it (RFC 6455 5.5.3
    /// allows answering only the most recent), so a ping flood holds at most 125 bytes.
    var pendingPong: [UInt8]?
    /// The client was silent for the idle-ping interval: a ping is owed (`IdleTracker`).
    var pingOwed = false
    /// The server's close frame has been written; it now waits for the client's.
    var closeSent = false
    /// The client's close frame arrived (or its input ended): nothing more is sent but the
    /// server's close frame, and once that is written the connection is closed.
    var peerClosed = false

    init(connection: Connection, version: WireVersion = .latest, bucket: TokenBucket, maxMessageBytes: Int) {
        self.connection = connection
        self.version = version
        self.bucket = bucket
        self.reader = FrameReader(maxMessageBytes: maxMessageBytes)
    }

    /// Messages this client still has to send: private ones plus the room's backlog.
    var backlog: Int {
        privateQueue.count + (room.map { $0.ring.pending(from: cursor) } ?? 0)
    }

    /// Whether WRITEABLE has anything to do.
    var wantsWrite: Bool {
        if !privateQueue.isEmpty || pendingPong != nil || pingOwed || (closing != nil && !closeSent) { return true }
        guard let room else { return false }
        return cursor < room.ring.nextSeq
    }

    /// Marks the client for closing; the first reason wins.
    func beginClose(_ close: PendingClose) {
        guard closing == nil else { return }
        closing = close
    }
}
