import CLwsShim

/// The libwebsockets context behind `Transport`: created without a listener (connections come
/// from the server's front door), serviced by the service loop, destroyed once. Its callback
/// turns lws' reasons into `TransportEvent`s for `handler`.
///
/// Threading: service thread only, except `wake()` (`lws_cancel_service` is documented as
/// thread-safe; `LoopInbox` calls it through `Transport.wake`).
///
/// Ownership across C: the context's user pointer is this object, unretained, and `handler` is
/// held unowned: whoever owns them destroys the context (`destroy()`) before either goes away.
final class LwsContext {
    /// The shim's server handle; `nil` once destroyed.
    private(set) var server: OpaquePointer?
    /// Where events go; set before the first `service()`.
    unowned(unsafe) var handler: (any TransportHandler)?

    /// Creates the context. `nil` when lws cannot.
    init?(_ s: Transport.Settings) {
        var c = ldlws_config()
        c.adopt_only = 1
        c.port = Int32(s.port)
        c.header_data_bytes = s.headerDataBytes
        c.ipv4_only = 0 // lws binds nothing; it must not take an adopted IPv6 socket for IPv4
        // lws' round-trip timeouts (a TLS handshake, a request head in lws' parser). A request
        // the server answers later gets its own, longer one (`Connection.waitForAnswer`), so
        // this never cuts off an answer the server is still working on (issue 31, finding 3).
        c.timeout_secs = UInt32(clamping: s.roundTripTimeoutSeconds)
        // lws mallocs this per WebSocket for its own frame parser, which no longer reads them
        // (`WebSocketInput`); 0 would mean 4096. The smallest it accepts.
        c.rx_buffer_size = 1
        c.tx_packet_size = Lws.sendChunkBytes
        c.header_tables = UInt32(clamping: s.headerTables)
        c.callback = lwsServiceCallback
        c.event_loop = s.eventLoop.shimKind
        c.user = Unmanaged.passUnretained(self).toOpaque()
        TransportLog.apply()
        let created = withOptionalCString(s.tlsCertPath) { certPtr in
            withOptionalCString(s.tlsKeyPath) { keyPtr in
                s.subprotocol.withCString { proto in
                    withOptionalCString(s.olderSubprotocol) { older in
                        withOptionalCString(s.securityHeaders) { security in
                            c.tls_cert_path = certPtr
                            c.tls_key_path = keyPtr
                            c.subprotocol = proto
                            c.older_subprotocol = older
                            c.security_headers = security
                            return ldlws_create(&c)
                        }
                    }
                }
            }
        }
        guard let created else { return nil }
        server = created
    }

    /// The port lws reports (the one it was given).
    var port: Int { server.map { Int(ldlws_port($0)) } ?? 0 }

    /// One turn of lws' service loop. False when lws failed.
    func service() -> Bool {
        guard let server else { return false }
        return ldlws_service(server) >= 0
    }

    /// Wakes the service loop (lws then reports `.wakeUp`). Any thread, before `destroy()`.
    func wake() {
        if let server { ldlws_cancel_service(server) }
    }

    /// Hands an accepted socket and the bytes already read from it to lws. `fd` is lws' from this
    /// call on, whatever happens; `.created` for it is reported during the call. `nil`: lws
    /// closed it already (or could not take it).
    func adoptSocket(_ fd: Int32, _ bytes: [UInt8]) -> Connection? {
        guard let server else { return nil }
        return bytes.withUnsafeBufferPointer { ldlws_adopt_socket(server, fd, $0.baseAddress, $0.count) }
            .map(Connection.init(wsi:))
    }

    /// Adopts a descriptor lws only watches for input (`.readinessReady`); lws closes it with
    /// the connection.
    func adoptFile(_ fd: Int32) -> Connection? {
        guard let server else { return nil }
        return ldlws_adopt_file(server, fd).map(Connection.init(wsi:))
    }

    /// Closes every connection (their last events are reported now) and frees the context.
    func destroy() {
        guard let server else { return }
        ldlws_destroy(server)
        self.server = nil
    }

    deinit {
        handler = nil // whoever owned the context let it go without `destroy()`
        destroy()
    }

    /// One lws callback, as an event for `handler`.
    fileprivate func dispatch(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                              _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
        // None yet while the server is being built (lws' own setup callbacks, the readiness set).
        guard let handler else { return lws_callback_http_dummy(wsi, reason, user, input, len) }
        let c = Connection(wsi: wsi)
        let slot = SessionSlot(user)
        let event: TransportEvent
        switch reason {
        case LWS_CALLBACK_RAW_RX_FILE: event = .readinessReady(c)
        case LWS_CALLBACK_RAW_CLOSE_FILE: event = .readinessClosed(c)
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED: event = .wakeUp
        case LWS_CALLBACK_WSI_CREATE: event = .created(c)
        case LWS_CALLBACK_WSI_DESTROY: event = .destroyed(c, slot)
        case LWS_CALLBACK_HTTP:
            guard let slot else { return -1 }
            event = .httpRequest(c, slot, path: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/")
        case LWS_CALLBACK_HTTP_BODY:
            guard len > 0, let input else { return 0 }
            event = .httpBody(c, slot, UnsafeRawBufferPointer(start: input, count: len))
        case LWS_CALLBACK_HTTP_BODY_COMPLETION: event = .httpBodyComplete(c, slot)
        case LWS_CALLBACK_HTTP_WRITEABLE: event = .httpWritable(c, slot)
        case LWS_CALLBACK_HTTP_FILE_COMPLETION:
            // lws' file server is done: end the transaction (keep-alive) or close.
            return c.completeTransaction() ? 0 : -1
        case LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_HTTP_DROP_PROTOCOL: event = .httpClosed(c, slot)
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            event = .confirmUpgrade(c, upgrade: input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "")
        case LWS_CALLBACK_ESTABLISHED: event = .established(c, slot)
        case LWS_CALLBACK_RECEIVE: event = .received(c, slot)
        case LWS_CALLBACK_SERVER_WRITEABLE: event = .writable(c, slot)
        case LWS_CALLBACK_CLOSED: event = .closed(c, slot)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, len)
        }
        return handler.handle(event).code
    }
}

/// The one lws callback for every protocol of the vhost. lws calls it only from `lws_service` /
/// `lws_context_destroy`, i.e. on the service thread (threading rule 1). The context's user
/// pointer is the unretained `LwsContext` (see its ownership note).
private func lwsServiceCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                                _ input: UnsafeMutableRawPointer?, _ len: Int) -> Int32 {
    guard let wsi, let owner = ldlws_user(wsi) else { return 0 }
    return Unmanaged<LwsContext>.fromOpaque(owner).takeUnretainedValue().dispatch(wsi, reason, user, input, len)
}

func withOptionalCString<R>(_ s: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let s else { return body(nil) }
    return s.withCString { body($0) }
}
