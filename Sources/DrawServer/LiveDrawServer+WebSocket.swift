import CLwsShim
import DrawCore
import DrawPresentation

/// WebSocket connections: upgrade checks, join, messages, close. Service thread only.
/// Input is read and framed in `LiveDrawServer+WebSocketInput`.
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
                                                                    burst: config.rateLimitBurst),
                                      maxMessageBytes: config.maxMessageBytes)
        attach(client, kind: .webSocket, to: session)
        clients[ObjectIdentifier(client)] = client
        metrics.viewers.record(clients.count)

        // First, so that even the closes below read the client's answer.
        guard takeOverInput(client) else {
            logger.error("cannot watch a WebSocket's input; closing it")
            close(client, code: CloseCode.internalError, reason: "server error", drainRoom: false)
            return
        }
        if shuttingDown {
            close(client, code: CloseCode.goingAway, reason: "server shutting down", drainRoom: false)
            return
        }
        let path = Lws.uri(wsi) ?? ""
        let name = path.hasPrefix("/ws/") ? String(path.dropFirst(4)) : ""
        guard RoomName.isValid(name), let room = rooms[name] else {
            sendPrivate(WireMessages.error(.unknownRoom), to: client)
            close(client, code: CloseCode.unknownRoom, reason: "unknown room", drainRoom: false)
            return
        }
        room.add(client)
        // The snapshot describes the room up to the ring's current end; the cursor starts
        // there, so every later broadcast follows it, in order, with nothing missing.
        sendPrivate(snapshot(of: room, asMessage: true), to: client)
        viewersChanged(room)
    }

    /// RECEIVE: input lws parsed itself, which it no longer does once `takeOverInput` ran — except
    /// for a connection whose input could not be taken over. Nothing here is trusted (lws
    /// checked no mask, and its lengths are the peer's): the connection is failed with 1002,
    /// without arithmetic on anything the peer sent.
    func clientReceived(_ client: ClientConnection) -> Int32 {
        close(client, code: CloseCode.protocolError, reason: "unexpected input", drainRoom: false)
        return 0
    }

    /// One complete client message: rate limit, then `ping` / `start`, else an error and a strike.
    func handleMessage(_ bytes: [UInt8], binary: Bool, from client: ClientConnection) {
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
            close(client, code: CloseCode.policyViolation, reason: "too many bad messages", drainRoom: false)
        }
    }

    /// CLOSED: stop reading (before lws closes the socket), leave the room, forget the client,
    /// release the session's reference.
    func clientClosed(_ client: ClientConnection) {
        stopReading(client)
        leaveRoom(client)
        clients[ObjectIdentifier(client)] = nil
        metrics.viewers.record(clients.count)
        // Not while shutdown still waits for the records: `run()` closes the store right after.
        if shuttingDown && !awaitingStorageDrain && clients.isEmpty { loopShouldExit = true }
    }
}
