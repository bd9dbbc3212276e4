import DrawCore
import DrawPresentation
import DrawTransport

/// One WebSocket client. Touched only on the service thread.
///
/// Ownership: lws' per-session slot holds a +1 reference (`Unmanaged.passRetained`) taken in
/// `LWS_CALLBACK_ESTABLISHED` and released in `LWS_CALLBACK_CLOSED` (or, as a fallback, in
/// `LWS_CALLBACK_WSI_DESTROY`); its `connection` is valid exactly that long.
final class ClientConnection {
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
    /// The write protocol and the closing handshake (`WriteState`); changed only through its
    /// inputs, by `ClientWriter` (what goes out) and `WebSocketInbound` (what came in).
    var write = WriteState()

    var strikes = 0
    var bucket: TokenBucket

    /// The client's input, parsed as it is read (`WebSocketInbound+Input`).
    var reader: FrameReader
    /// The socket the server reads this client's input from; -1 when it does not (not yet,
    /// or no longer: the peer hung up or the connection is closed).
    var inputFD: Int32 = -1
    /// How its messages are sent (`DirectOutput`): set with the input, stopped with it.
    var output = DirectOutput()
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

    /// Why the server is closing this client; `nil` while it is open.
    var closing: WriteState.PendingClose? { write.closing }

    /// Whether WRITEABLE has anything to do.
    var wantsWrite: Bool {
        write.wantsWrite(messagesOwed: !privateQueue.isEmpty || room.map { cursor < $0.ring.nextSeq } ?? false)
    }
}
