import DrawCore
import Logging
import DrawTransport

/// What goes out to WebSocket clients, one client at a time: private messages, the one write
/// per WRITEABLE (`WriteState` decides which, this performs it), closing with a close frame, and
/// the deadlines that bound a close (`CloseDeadlines`). A room's fan-out (`RoomBroadcaster`)
/// hands each client here. Service thread only; no locks on this path.
final class ClientWriter {
    /// Seconds a closing client gets to take what it is owed and the close frame before it is
    /// dropped (a client that stopped reading never gets the frame). docs/PROTOCOL.md section 4.
    static let closeDeadlineNanos = Nanoseconds.seconds(5)

    private let config: ServerConfig
    private let clock: any DrawClock
    private let logger: Logger
    private let metrics: ServerMetrics
    private unowned let loop: any RoomLoop
    /// Closing clients and when each must be gone.
    private var closeDeadlines = CloseDeadlines()
    /// Takes a client out of its room (the room's viewers changed); set when the owners are wired.
    var leaveRoom: (ClientConnection) -> Void = { _ in }

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, metrics: ServerMetrics, loop: any RoomLoop) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.loop = loop
    }

    /// Forgets every closing client (teardown).
    func removeAll() { closeDeadlines.removeAll() }

    /// Queues a message for one client only (snapshot, error, pong).
    func sendPrivate(_ bytes: [UInt8], to client: ClientConnection) {
        guard client.write.isOpen, !loop.destroying else { return }
        client.privateQueue.push(OutboundMessage(bytes))
        if client.backlog > config.outboundQueueLimit {
            closeTooSlow(client)
        } else {
            client.connection.requestWritable()
        }
    }

    /// SERVER_WRITEABLE: exactly one write, as the client's `WriteState` says (a pong, an idle
    /// ping, a private message, the next room message, or the close frame). After the close
    /// handshake it closes the socket.
    func writeNext(_ client: ClientConnection) -> TransportReply {
        switch client.write.writable() {
        case .hangUp:
            // -1 makes lws flush what it still holds, then shut the socket down (no close frame
            // of its own: lws_close_reason is never called).
            return .hangUp
        case .nothing:
            return .proceed
        case .pong(let payload):
            return writeControl(.pong, payload, to: client)
        case .ping:
            return writeControl(.ping, [], to: client)
        case .message(let privateAllowed, let roomAllowed):
            var message = privateAllowed ? client.privateQueue.pop() : nil
            if message == nil, roomAllowed, let room = client.room, client.cursor < room.ring.nextSeq {
                // A member's backlog never exceeds the ring's capacity (it would have been closed),
                // so the message is still there — except for a client draining before its
                // shutdown close, which then simply goes on to its close.
                message = room.ring.element(at: client.cursor)?.bytes(for: client.version)
                client.cursor += 1
                if message == nil, client.write.isOpen {
                    closeTooSlow(client)
                    return .proceed
                }
            }
            if let message {
                guard client.connection.write(message, output: &client.output) else { return .hangUp }
                metrics.messageSent()
                if client.wantsWrite { client.connection.requestWritable() }
                return .proceed
            }
        }
        guard case .closeFrame(let payload, let hangUpAfter) = client.write.noMessage() else { return .proceed }
        guard client.connection.writeControl(.close, payload, output: &client.output) else { return .hangUp }
        if hangUpAfter { return .hangUp }
        // Wait for the client's close, reading meanwhile (`WebSocketInbound.readable`), but not forever.
        armCloseDeadline(client, afterNanos: Nanoseconds.seconds(config.closeHandshakeSeconds))
        return .proceed
    }

    private func writeControl(_ kind: Connection.ControlFrame, _ payload: [UInt8], to client: ClientConnection) -> TransportReply {
        guard client.connection.writeControl(kind, payload, output: &client.output) else { return .hangUp }
        if client.wantsWrite { client.connection.requestWritable() }
        return .proceed
    }

    /// Starts closing a client with `code`. With `drainRoom` it first gets the room messages
    /// it is owed (shutdown); without, it leaves the room at once and gets only its private
    /// messages (e.g. the `error` before 4404). Then the close frame, then the wait for the
    /// client's close (`ServerConfig.closeHandshakeSeconds`).
    ///
    /// `deadlineNanos` bounds the time until the close frame is written: if the peer never
    /// reads again, WRITEABLE never comes, and the housekeeping tick drops the connection then
    /// (`dropOverdueClosings`).
    func close(_ client: ClientConnection, code: UInt16?, reason: String, drainRoom: Bool,
               deadlineNanos: UInt64 = ClientWriter.closeDeadlineNanos) {
        guard !loop.destroying, client.write.beginClose(.init(code: code, reason: reason, drainRoom: drainRoom)) else { return }
        client.reader.awaitClose() // what the client sends now is read only to find its close
        if !drainRoom { leaveRoom(client) }
        armCloseDeadline(client, afterNanos: deadlineNanos)
        client.connection.requestWritable()
    }

    /// `client` must be gone `afterNanos` from now (`CloseDeadlines`); replaces its earlier deadline.
    func armCloseDeadline(_ client: ClientConnection, afterNanos: UInt64) {
        closeDeadlines.arm(client, afterNanos: afterNanos, nowNanos: clock.monotonicNanos())
    }

    /// Drops every closing client whose deadline passed (from the housekeeping tick), without a
    /// close frame: it did not take the one it was sent, or did not answer it.
    func dropOverdueClosings() {
        for client in closeDeadlines.popDue(nowNanos: clock.monotonicNanos()) {
            logger.debug("dropping a client that did not finish closing in time",
                         metadata: ["room": "\(client.room?.name ?? "-")"])
            client.connection.kill()
        }
    }

    /// lws reported `client` closed: its deadline is moot (and its connection gone).
    func forgetClosing(_ client: ClientConnection) {
        closeDeadlines.forget(client)
    }

    /// Closes a client whose backlog passed `outboundQueueLimit` (4408) instead of growing memory
    /// or holding its room back.
    func closeTooSlow(_ client: ClientConnection) {
        guard client.write.isOpen else { return }
        metrics.slowClientDisconnected()
        logger.debug("closing slow client", metadata: ["room": "\(client.room?.name ?? "-")"])
        client.privateQueue.removeAll()
        close(client, code: CloseCode.tooSlow, reason: "too slow", drainRoom: false)
    }
}
