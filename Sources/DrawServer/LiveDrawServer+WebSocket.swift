import CLwsShim
import DrawCore
import DrawPresentation

/// WebSocket connections: upgrade checks, join, inbound limits, close. Service thread only.
extension LiveDrawServer {
    /// HTTP_CONFIRM_UPGRADE: the last moment to refuse with an HTTP status (headers are still
    /// attached). Returns 0 to allow, 1 after writing a refusal, -1 to hang up.
    ///
    /// The refusal is written directly here — not in a WRITEABLE — as lws' own status
    /// responses are: lws expects the response to be complete when we return 1.
    func confirmUpgrade(_ wsi: OpaquePointer, upgrade: String) -> Int32 {
        guard upgrade.lowercased() == "websocket" else { return -1 } // h2c and friends: no
        func refuse(_ code: ClientErrorCode, _ message: String? = nil) -> Int32 {
            Lws.refuseUpgrade(wsi, .json(code.httpStatus, APIMessages.error(code, message: message))) ? 1 : -1
        }
        if shuttingDown { return refuse(.shuttingDown) }
        if openConnections.count > config.maxConnections { return refuse(.tooManyConnections) }
        guard let path = Lws.uri(wsi), path.hasPrefix("/ws/") else { return refuse(.notFound) }
        if !config.allowedOrigins.isEmpty, let origin = Lws.header(wsi, WSI_TOKEN_ORIGIN),
           !config.allowedOrigins.contains(origin) {
            return refuse(.forbidden, "This origin may not open WebSockets on this server.")
        }
        // lws would hang up without a word on a handshake whose offered subprotocols are all
        // unknown; say why instead. No offer at all is fine (v1).
        if let offered = Lws.header(wsi, WSI_TOKEN_PROTOCOL),
           !offered.split(separator: ",").contains(where: { String($0).trimmingBlanks() == WireMessages.subprotocol }) {
            return refuse(.unsupportedSubprotocol)
        }
        return 0
    }

    /// ESTABLISHED: the client joins its room and gets its snapshot first.
    func clientEstablished(_ wsi: OpaquePointer, session: UnsafeMutablePointer<ldlws_session>) {
        releaseSession(session) // an HTTP exchange left from an earlier keep-alive request
        let client = ClientConnection(wsi: wsi, bucket: TokenBucket(ratePerSecond: config.rateLimitPerSecond,
                                                                    burst: config.rateLimitBurst))
        attach(client, kind: .webSocket, to: session)
        clients[ObjectIdentifier(client)] = client
        metrics.viewers.record(clients.count)

        if shuttingDown {
            close(client, code: 1001, reason: "server shutting down", drainRoom: false)
            return
        }
        let path = Lws.uri(wsi) ?? ""
        let name = path.hasPrefix("/ws/") ? String(path.dropFirst(4)) : ""
        guard RoomName.isValid(name), let room = rooms[name] else {
            sendPrivate(WireMessages.error(.unknownRoom), to: client)
            close(client, code: 4404, reason: "unknown room", drainRoom: false)
            return
        }
        room.add(client)
        // The snapshot describes the room up to the ring's current end; the cursor starts
        // there, so every later broadcast follows it, in order, with nothing missing.
        sendPrivate(snapshot(of: room, asMessage: true), to: client)
        viewersChanged(room)
    }

    /// RECEIVE: reassembles a message within `maxMessageBytes` (counting across fragments and
    /// refusing before buffering), then handles it. Returns -1 to close.
    func clientReceived(_ client: ClientConnection, _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        let wsi = client.wsi
        guard client.closing == nil else { return 0 }
        client.inboundBytes += len
        if ldlws_frame_is_binary(wsi) != 0 { client.inboundBinary = true }
        if client.inboundBytes + ldlws_remaining_payload(wsi) > config.maxMessageBytes {
            ldlws_close_reason(wsi, 1009, "message too big")
            return -1
        }
        if !client.inboundBinary, len > 0, let input {
            client.inbound.append(contentsOf: UnsafeRawBufferPointer(start: input, count: len))
        }
        guard ldlws_is_final_fragment(wsi) != 0 else { return 0 }
        let bytes = client.inbound, binary = client.inboundBinary
        client.resetInbound()
        handleMessage(bytes, binary: binary, from: client)
        return 0
    }

    private func handleMessage(_ bytes: [UInt8], binary: Bool, from client: ClientConnection) {
        guard client.bucket.take(nowNanos: clock.monotonicNanos()) else { return reject(.rateLimited, client) }
        guard !binary else { return reject(.binaryNotSupported, client) }
        switch ClientMessage.parse(bytes) {
        case .failure(let code):
            reject(code, client)
        case .success(.ping(let id)):
            sendPrivate(WireMessages.pong(id: id, serverTime: clock.epochMillis()), to: client)
        case .success(.start(let hostKey)):
            guard let room = client.room else { return reject(.unknownRoom, client) }
            if let refusal = startDraw(in: room, hostKey: hostKey) { reject(refusal, client) }
        }
    }

    /// An `error` message and a strike; at `maxStrikes`, close with 1008.
    private func reject(_ code: ClientErrorCode, _ client: ClientConnection) {
        sendPrivate(WireMessages.error(code), to: client)
        client.strikes += 1
        if client.strikes >= config.maxStrikes {
            close(client, code: 1008, reason: "too many bad messages", drainRoom: false)
        }
    }

    /// CLOSED: leave the room, forget the client, release the session's reference.
    func clientClosed(_ client: ClientConnection) {
        leaveRoom(client)
        clients[ObjectIdentifier(client)] = nil
        metrics.viewers.record(clients.count)
        // Not while shutdown still waits for the records: `run()` closes the store right after.
        if shuttingDown && !awaitingStorageDrain && clients.isEmpty { loopShouldExit = true }
    }
}
