import CLwsShim

/// The one lws callback for every protocol of the vhost.
///
/// lws calls it only from `lws_service` / `lws_context_destroy`, i.e. on the service thread
/// (threading rule 1). The context's user pointer is the unretained server (see the ownership
/// note on `LiveDrawServer`).
func lwsServiceCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                        _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi, let owner = ldlws_user(wsi) else { return 0 }
    let server = Unmanaged<LiveDrawServer>.fromOpaque(owner).takeUnretainedValue()
    return server.dispatch(wsi, reason, user?.assumingMemoryBound(to: ldlws_session.self), input, len)
}

extension LiveDrawServer {
    /// Hard cap on accepted sockets beyond `maxConnections`: those past the soft limit still get
    /// a 503, these are refused before any memory is spent on them (by the front door).
    static let hardConnectionSlack = 64

    func dispatch(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ session: UnsafeMutablePointer<ldlws_session>?,
                  _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        serviceThread.check()
        switch reason {
        // MARK: descriptors we read ourselves (Readiness)
        case LWS_CALLBACK_RAW_RX_FILE:
            if let readiness, readiness.wsi == wsi { readiness.dispatch() }
            return 0
        case LWS_CALLBACK_RAW_CLOSE_FILE:
            if let readiness, readiness.wsi == wsi, !destroying {
                logger.error("the readiness descriptor was closed; descriptors we read ourselves are no longer watched")
                readiness.close()
            }
            return 0

        // MARK: cross-thread hand-over (rule 2)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // lws broadcasts this once per protocol; draining twice is harmless.
            if !destroying { drainInbox() }
            return 0

        // MARK: connection accounting
        // (lws accepts nothing itself: the front door applies the limits, see `FrontDoor`.)
        case LWS_CALLBACK_WSI_CREATE:
            openConnections.insert(wsi)
            metrics.connections.record(openConnections.count)
            frontDoor?.lwsCreated(wsi)
            return 0
        case LWS_CALLBACK_WSI_DESTROY:
            frontDoor?.lwsSettled(wsi)
            releaseSession(session)
            if openConnections.remove(wsi) != nil { metrics.connections.record(openConnections.count) }
            return 0

        // MARK: HTTP
        case LWS_CALLBACK_HTTP:
            guard let session else { return -1 }
            let path = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return httpRequest(wsi, session: session, path: path)
        case LWS_CALLBACK_HTTP_BODY:
            if let exchange = exchange(in: session) { httpBody(wsi, exchange, input, len) }
            return 0
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            if let exchange = exchange(in: session) { httpBodyComplete(wsi, exchange) }
            return 0
        case LWS_CALLBACK_HTTP_WRITEABLE:
            guard let exchange = exchange(in: session) else { return 0 }
            return httpWriteable(wsi, exchange)
        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            return ldlws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL:
            if exchange(in: session) != nil { releaseSession(session) }
            return 0

        // MARK: WebSocket
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
            return confirmUpgrade(wsi, upgrade: upgrade)
        case LWS_CALLBACK_ESTABLISHED:
            frontDoor?.lwsSettled(wsi) // the handshake's header table is free again
            guard let session else { return -1 }
            clientEstablished(wsi, session: session)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let client = client(in: session) else { return -1 }
            return clientReceived(client)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let client = client(in: session) else { return 0 }
            return writeNext(client)
        case LWS_CALLBACK_CLOSED:
            releaseSession(session)
            return 0

        default:
            return lws_callback_http_dummy(wsi, reason, session, input, len)
        }
    }
}
