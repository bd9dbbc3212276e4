import CLwsShim

/// Fan-out and the per-client outbound queue. Service thread only; no locks on this path.
extension LiveDrawServer {
    /// Seconds a closing client gets to take its close frame before lws drops it.
    static let closeDeadlineSeconds: Int32 = 5

    /// Sends `bytes` to every member of `room`: serialised once, copied once into a shared
    /// buffer, stored once in the room's ring; per client only a cursor comparison and a
    /// WRITEABLE request. A client whose backlog passes `outboundQueueLimit` is closed as too
    /// slow (4408) instead of growing memory or holding the room back.
    func broadcast(_ bytes: [UInt8], in room: Room) {
        guard !destroying else { return }
        room.append(OutboundMessage(bytes))
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
            ldlws_request_writable(client.wsi)
            i += 1
        }
    }

    /// Queues a message for one client only (snapshot, error, pong).
    func sendPrivate(_ bytes: [UInt8], to client: ClientConnection) {
        guard client.closing == nil, !destroying else { return }
        client.privateQueue.push(OutboundMessage(bytes))
        if client.backlog > config.outboundQueueLimit {
            closeTooSlow(client)
        } else {
            ldlws_request_writable(client.wsi)
        }
    }

    /// SERVER_WRITEABLE: exactly one `lws_write` — a private message first, else the next room
    /// message — or, when nothing is owed any more and a close is pending, the close.
    func writeNext(_ client: ClientConnection) -> Int32 {
        var message = client.privateQueue.pop()
        if message == nil, let room = client.room, client.closing?.drainRoom ?? true,
           client.cursor < room.ring.nextSeq {
            // A member's backlog never exceeds the ring's capacity (it would have been closed),
            // so the message is still there — except for a client draining before its
            // shutdown close, which then simply goes on to its close.
            message = room.ring.element(at: client.cursor)
            client.cursor += 1
            if message == nil, client.closing == nil {
                closeTooSlow(client)
                return 0
            }
        }
        if let message {
            guard message.write(to: client.wsi) else { return -1 }
            metrics.messageSent()
            if client.wantsWrite { ldlws_request_writable(client.wsi) }
            return 0
        }
        if let close = client.closing {
            ldlws_close_reason(client.wsi, close.code, close.reason)
            return -1
        }
        return 0
    }

    /// Starts closing a client with `code`. With `drainRoom` it first gets the room messages
    /// it is owed (shutdown); without, it leaves the room at once and gets only its private
    /// messages (e.g. the `error` before 4404).
    func close(_ client: ClientConnection, code: Int32, reason: String, drainRoom: Bool,
               deadlineSeconds: Int32 = LiveDrawServer.closeDeadlineSeconds) {
        guard client.closing == nil, !destroying else { return }
        client.beginClose(.init(code: code, reason: reason, drainRoom: drainRoom))
        if !drainRoom { leaveRoom(client) }
        // If the peer never reads again, WRITEABLE never comes: lws drops it at the deadline.
        ldlws_close_deadline(client.wsi, deadlineSeconds)
        ldlws_request_writable(client.wsi)
    }

    func closeTooSlow(_ client: ClientConnection) {
        guard client.closing == nil else { return }
        metrics.slowClientDisconnected()
        logger.debug("closing slow client", metadata: ["room": "\(client.room?.name ?? "-")"])
        client.privateQueue.removeAll()
        close(client, code: 4408, reason: "too slow", drainRoom: false)
    }

    func leaveRoom(_ client: ClientConnection) {
        guard let room = client.room else { return }
        room.remove(client)
        client.room = nil
        viewersChanged(room)
    }
}
