/// The transport as the server sees it: the connections it hands over (HTTP and WebSocket, on
/// libwebsockets), the loop that services them, the timers on that loop and the thread that owns
/// all of it. The one door from the server into this target's context; `LwsContext` stays inside.
///
/// Threading: service thread only (`thread`, checked in debug builds at every entry the server's
/// handler and timers get), except `wake()`, which any thread may call until `destroy()`.
///
/// Ownership: `handler` is held unowned; whoever owns it destroys the transport (`destroy()`)
/// before it goes away.
package final class Transport {
    /// What the transport is made with.
    package struct Settings {
        /// The port the server's own listening socket is bound to (the transport only reports it).
        package var port = 0
        /// Bytes of one header table (a request head lws parses).
        package var headerDataBytes = 4096
        /// How many request heads lws parses at once.
        package var headerTables: Int = 256
        package var tlsCertPath: String?
        package var tlsKeyPath: String?
        /// The WebSocket subprotocol accepted.
        package var subprotocol = ""
        /// An older subprotocol accepted too (a version still served); `nil`: none.
        package var olderSubprotocol: String?
        /// Header lines sent instead of lws' security set; `nil`: lws' own.
        package var securityHeaders: String?
        /// The loop that services the transport (checked available before).
        package var eventLoop: EventLoop = .poll
        /// lws' own round-trip timeouts, in seconds (a TLS handshake, a request head in lws'
        /// parser). Tests shorten it to show an answer that takes longer still arrives.
        package var roundTripTimeoutSeconds = 10

        package init() {}
    }

    let context: LwsContext
    /// The service thread: claimed by whoever runs `service()`; timers check it when they fire.
    package let thread: ThreadOwner
    /// Closes every timer at once before the context goes away.
    package let timerGate = TimerGate()

    /// Creates the transport. `nil` when lws cannot.
    package init?(_ settings: Settings, thread: ThreadOwner) {
        guard let context = LwsContext(settings) else { return nil }
        self.context = context
        self.thread = thread
    }

    /// Where events go; set before the first `service()`.
    package var handler: (any TransportHandler)? {
        get { context.handler }
        set { context.handler = newValue }
    }

    /// The port reported (the one it was given).
    package var port: Int { context.port }

    /// Between `init` and `destroy()`.
    package var isRunning: Bool { context.server != nil }

    /// One turn of the service loop: waits for something to happen and reports it to `handler`,
    /// runs the timers due. False when lws failed.
    package func service() -> Bool { context.service() }

    /// Wakes the service loop (`handler` then gets `.wakeUp`). Any thread, before `destroy()`.
    package func wake() { context.wake() }

    /// Hands an accepted socket and the bytes already read from it over. `fd` is the transport's
    /// from this call on, whatever happens; `.created` for it is reported during the call. `nil`:
    /// it was closed already (or could not be taken).
    package func adoptSocket(_ fd: Int32, _ bytes: [UInt8]) -> Connection? { context.adoptSocket(fd, bytes) }

    /// A one-shot timer on this loop; `action` runs on the service thread.
    package func timer(_ action: @escaping () -> Void) -> LoopTimer {
        LoopTimer(transport: self, gate: timerGate, action: action)
    }

    /// Closes every connection (their last events are reported now) and frees the context.
    /// Close the timers (`timerGate.close()`) first.
    package func destroy() { context.destroy() }
}
