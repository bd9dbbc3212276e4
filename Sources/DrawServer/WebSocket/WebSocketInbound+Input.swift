import DrawTransport

/// WebSocket input: after the upgrade the server reads each connection's bytes itself and
/// parses them with `FrameReader`; lws only writes. Service thread only.
///
/// Why: lws 4.1 never checks the mask bit on frames a server receives, passes close codes a
/// client may not send, drops an oversized ping without a close frame, and sums peer-supplied
/// lengths unchecked (issue 11). We cannot change lws, so it does not read WebSockets any more.
///
/// How: at ESTABLISHED, lws stops reading the connection (rx flow control) and `Readiness`
/// watches its socket; each time it is readable we read into one shared scratch buffer (through
/// the connection's TLS session for wss) and feed the client's `FrameReader`. Valid frames
/// count as the client heard (`+Idle`: idle ping and hang-up).
///
/// The closing handshake: whoever closes first, the server keeps reading until the client's
/// close frame arrives or `closeHandshakeSeconds` pass, discarding everything else. A socket
/// closed with unread input answers with a reset, which destroys data the client has not read
/// yet — such as our close frame (issue 11, finding 10).
///
/// Numbers from the peer (frame lengths, counts): only `FrameReader` looks at them, and every
/// arithmetic on them there is checked so that it can neither trap nor wrap (a Swift overflow
/// trap is a remote crash, issue 11 finding 1). Keep it that way for any new one.
///
/// Input sent before the 101 response (in the same packet as the handshake) is read by lws
/// while it parses the request and stays in lws' buffer; it never reaches the server (RFC 6455
/// 4.1: a client must wait for the response before it sends frames).
extension WebSocketInbound {
    /// Most reads per readiness event: a client that sends without pause cannot hold the
    /// service thread (the socket is level-triggered, so the rest is read on the next turn).
    static let readsPerWakeup = 4

    /// Takes the connection's input over from lws. False when it cannot be watched.
    func takeOverInput(_ client: ClientConnection) -> Bool {
        guard let readiness = loop.readiness else { return false }
        let fd = client.connection.takeOverInput()
        guard fd >= 0 else { return false }
        // The client outlives the watch: it is unwatched in `closed`, before lws frees
        // the session's reference and closes the socket.
        let watched = readiness.watch(fd, for: .readable) { [unowned self, unowned client] _ in
            self.readable(client)
        }
        guard watched else { return false }
        client.inputFD = fd
        client.output = client.connection.directOutput()
        return true
    }

    /// Stops reading the client, and sending on its socket directly; call it before lws closes
    /// the socket (descriptors are reused).
    func stopReading(_ client: ClientConnection) {
        client.output.stop()
        guard client.inputFD >= 0 else { return }
        loop.readiness?.unwatch(client.inputFD)
        client.inputFD = -1
    }

    /// The socket is readable (or hung up, or failed: a read tells which).
    func readable(_ client: ClientConnection) {
        var reads = 0
        var alive = false
        defer {
            // Once per wake-up, not per frame: a frame can be a handful of bytes.
            if alive { heard(client) }
        }
        while client.inputFD >= 0 {
            var more = false
            let n = client.connection.read(client.inputFD, into: inputScratch, more: &more)
            guard n > 0 else {
                if n != -1 { peerHungUp(client) } // 0: end of input; -2: error
                return
            }
            // 0 < n <= inputScratch.count: read() never returns more than it was given room for.
            var offset = 0
            let input = UnsafeRawBufferPointer(rebasing: inputScratch[0..<n])
            while client.inputFD >= 0, let event = client.reader.next(in: input, at: &offset) {
                if handle(event, from: client) { alive = true }
            }
            reads += 1
            // TLS may hold decrypted bytes the socket no longer signals: always take them.
            guard more || (n == inputScratch.count && reads < Self.readsPerWakeup) else { return }
        }
    }

    /// Acts on one event; true when it was a valid frame (the connection is alive).
    private func handle(_ event: FrameReader.Event, from client: ClientConnection) -> Bool {
        switch event {
        case .violation(let code, let reason, let peerClosed):
            logger.debug("websocket protocol violation", metadata: ["code": "\(code)", "reason": "\(reason)"])
            if peerClosed { client.write.peerDidClose() }
            if client.closing == nil {
                writer.close(client, code: code, reason: reason, drainRoom: false)
            } else if peerClosed {
                closeHandshakeDone(client)
            }
            return false
        case .close(let code, _):
            client.write.peerDidClose()
            if client.closing == nil {
                // Echo the client's code (RFC 6455 5.5.1); nothing queued is sent any more.
                writer.close(client, code: code, reason: "", drainRoom: false)
            } else {
                closeHandshakeDone(client)
            }
        case .text(let bytes):
            // A closing connection's messages are read (to find the client's close) and dropped.
            if client.closing == nil { handleMessage(bytes, binary: false, from: client) }
        case .binary:
            if client.closing == nil { handleMessage([], binary: true, from: client) }
        case .ping(let payload):
            if client.write.pingReceived(payload) { client.connection.requestWritable() }
        case .pong:
            break
        }
        return true
    }

    /// The client's close arrived while the server was closing: once the server's own close
    /// frame is out, WRITEABLE closes the socket (`ClientWriter.writeNext`).
    private func closeHandshakeDone(_ client: ClientConnection) {
        client.connection.requestWritable()
    }

    /// End of input or a read error. The socket is no longer watched (it would stay readable);
    /// a close echo still owed is written first (the peer may only have shut down its sending
    /// side), otherwise lws drops the connection on its next turn.
    private func peerHungUp(_ client: ClientConnection) {
        stopReading(client)
        if client.write.peerClosed, !client.write.closeSent {
            client.connection.requestWritable() // bounded by the close deadline set in `close`
            return
        }
        client.write.peerDidClose()
        client.connection.kill()
    }
}
