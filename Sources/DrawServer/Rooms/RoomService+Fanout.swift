import DrawPresentation
import DrawTransport

/// Fan-out and the per-client outbound queue. Service thread only; no locks on this path.
extension RoomService {
    /// Seconds a closing client gets to take what it is owed and the close frame before lws
    /// drops it (a client that stopped reading never gets the frame). docs/PROTOCOL.md section 4.
    static let closeDeadlineNanos = Nanoseconds.seconds(5)

    /// Sends `bytes` to every member of `room`: serialised once, copied once into a shared
    /// buffer, stored once in the room's ring; per client one write, at once. A client whose
    /// backlog passes `outboundQueueLimit` is closed as too slow (4408) instead of growing memory
    /// or holding the room back.
    ///
    /// At once, not on WRITEABLE (issue 17): a client that lws holds nothing for takes the
    /// message now, as the epoll floor does, and only a client whose socket was full (lws keeps
    /// the tail and flushes it first) waits for WRITEABLE. Asking for WRITEABLE first cost a
    /// POLLOUT round trip per client and message: a poll() scan of every socket, or two
    /// epoll_ctl calls.
    ///
    /// The v1 variant (`WireMessages.v1`) is made only while the room has v1 members.
    func broadcast(_ bytes: [UInt8], in room: Room) {
        guard !loop.destroying else { return }
        heartbeatHeard(in: room, broadcast: true)
        let v1 = room.v1Members > 0 ? WireMessages.v1(bytes, entrants: entrantLists.json(drawId:)) : nil
        room.append(RoomMessage(OutboundMessage(bytes), v1: v1.map(OutboundMessage.init)))
        let limit = config.outboundQueueLimit
        var i = 0
        while i < room.members.count {
            let client = room.members[i]
            // Members already closing with drainRoom (shutdown) are never re-judged: they are on
            // their way out and the close deadline bounds them.
            if client.closing == nil, client.backlog > limit {
                closeTooSlow(client) // swap-removes it: index i now holds another member
                continue
            }
            if client.closing == nil, !client.connection.hasBufferedOutput(client.output) {
                // The message owed first (a private one, or this): order stays the queue's.
                if writeNext(client) == .hangUp { client.connection.kill() }
                // writeNext may close a client (swap-removing it): index i then holds another.
                guard i < room.members.count, room.members[i] === client else { continue }
            } else {
                client.connection.requestWritable()
            }
            i += 1
        }
    }

    /// Queues a message for one client only (snapshot, error, pong).
    func sendPrivate(_ bytes: [UInt8], to client: ClientConnection) {
        guard client.closing == nil, !loop.destroying else { return }
        client.privateQueue.push(OutboundMessage(bytes))
        if client.backlog > config.outboundQueueLimit {
            closeTooSlow(client)
        } else {
            client.connection.requestWritable()
        }
    }

    /// SERVER_WRITEABLE: exactly one write — the pong owed for the client's last ping,
    /// else the idle ping owed to a silent client, else a private message, else the next room
    /// message — or, when nothing is owed any more and a close is pending, the close frame.
    /// After the close handshake it closes the socket.
    func writeNext(_ client: ClientConnection) -> TransportReply {
        // Both close frames are through: -1 makes lws flush what it still holds, then shut the
        // socket down (no close frame of its own: lws_close_reason is never called).
        if client.closeSent { return client.peerClosed ? .hangUp : .proceed }
        if !client.peerClosed, client.closing == nil, let pong = client.pendingPong {
            // Before any queued message: it answers the most recent ping, and a control frame
            // never cuts into a data frame (lws sends each message whole).
            client.pendingPong = nil
            guard client.connection.writeControl(.pong, pong, output: &client.output) else { return .hangUp }
            if client.wantsWrite { client.connection.requestWritable() }
            return .proceed
        }
        if client.pingOwed {
            client.pingOwed = false
            if !client.peerClosed, client.closing == nil {
                guard client.connection.writeControl(.ping, [], output: &client.output) else { return .hangUp }
                if client.wantsWrite { client.connection.requestWritable() }
                return .proceed
            }
        }
        // After the client's close, only the server's close frame goes out (RFC 6455 5.5.1).
        var message = client.peerClosed ? nil : client.privateQueue.pop()
        if message == nil, !client.peerClosed, let room = client.room, client.closing?.drainRoom ?? true,
           client.cursor < room.ring.nextSeq {
            // A member's backlog never exceeds the ring's capacity (it would have been closed),
            // so the message is still there — except for a client draining before its
            // shutdown close, which then simply goes on to its close.
            message = room.ring.element(at: client.cursor)?.bytes(for: client.version)
            client.cursor += 1
            if message == nil, client.closing == nil {
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
        if let close = client.closing {
            guard client.connection.writeControl(.close, Self.closePayload(close), output: &client.output) else { return .hangUp }
            client.closeSent = true
            if client.peerClosed { return .hangUp }
            // Wait for the client's close, reading meanwhile (`WebSocketInbound.readable`), but not forever.
            armCloseDeadline(client, afterNanos: Nanoseconds.seconds(config.closeHandshakeSeconds))
            return .proceed
        }
        return .proceed
    }

    /// A close frame's payload: the code, big-endian, then the reason cut to the 123 bytes a
    /// control frame leaves for it (our reasons are short ASCII; a cut never splits UTF-8 there).
    static func closePayload(_ close: ClientConnection.PendingClose) -> [UInt8] {
        guard let code = close.code else { return [] }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + close.reason.utf8.prefix(123)
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
               deadlineNanos: UInt64 = RoomService.closeDeadlineNanos) {
        guard client.closing == nil, !loop.destroying else { return }
        client.beginClose(.init(code: code, reason: reason, drainRoom: drainRoom))
        client.pendingPong = nil
        client.pingOwed = false
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

    func closeTooSlow(_ client: ClientConnection) {
        guard client.closing == nil else { return }
        metrics.slowClientDisconnected()
        logger.debug("closing slow client", metadata: ["room": "\(client.room?.name ?? "-")"])
        client.privateQueue.removeAll()
        close(client, code: CloseCode.tooSlow, reason: "too slow", drainRoom: false)
    }

    func leaveRoom(_ client: ClientConnection) {
        guard let room = client.room else { return }
        room.remove(client)
        client.room = nil
        viewersChanged(room)
    }
}
