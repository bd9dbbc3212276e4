import DrawTransport
import Logging

/// Routes the transport's events (`TransportEvent`) to their owners, and runs the jobs other
/// threads handed over (`ServiceExecutor`) when the transport says some came. Holds no state of
/// its own. Service thread only; debug builds check every event's thread.
final class ServiceDispatcher: TransportHandler {
    private let logger: Logger
    private let loop: ServiceLoop
    private let writer: ClientWriter
    private let webSockets: WebSocketInbound
    private let http: HTTPAPI

    init(logger: Logger, loop: ServiceLoop, writer: ClientWriter, webSockets: WebSocketInbound, http: HTTPAPI) {
        self.logger = logger
        self.loop = loop
        self.writer = writer
        self.webSockets = webSockets
        self.http = http
    }

    func handle(_ event: TransportEvent) -> TransportReply {
        loop.thread.check()
        switch event {
        // MARK: descriptors we read ourselves (Readiness)
        case .readinessReady(let c):
            if let readiness = loop.readiness, readiness.connection == c { readiness.dispatch() }
        case .readinessClosed(let c):
            if let readiness = loop.readiness, readiness.connection == c, !loop.destroying {
                logger.error("the readiness descriptor was closed; descriptors we read ourselves are no longer watched")
                readiness.close()
            }

        // MARK: cross-thread hand-over (rule 2)
        case .wakeUp:
            // lws broadcasts this once per protocol; draining twice is harmless.
            if !loop.destroying { loop.executor.drain() }

        // MARK: connection accounting
        // (lws accepts nothing itself: the front door applies the limits, see `FrontDoor`.)
        case .created(let c):
            loop.opened(c)
        case .destroyed(let c, let slot):
            loop.frontDoor?.lwsSettled(c)
            webSockets.release(slot)
            loop.forget(c)

        // MARK: HTTP
        case .httpRequest(let c, let slot, let path):
            webSockets.release(slot) // an earlier request's exchange on a keep-alive connection
            return http.request(c, slot: slot, path: path)
        case .httpBody(let c, let slot, let chunk):
            if let exchange = slot?.object(.http, as: HTTPExchange.self) { http.body(c, exchange, chunk) }
        case .httpBodyComplete(let c, let slot):
            if let exchange = slot?.object(.http, as: HTTPExchange.self) { http.bodyComplete(c, exchange) }
        case .httpWritable(let c, let slot):
            guard let exchange = slot?.object(.http, as: HTTPExchange.self) else { return .proceed }
            return http.writable(c, exchange)
        case .httpClosed(_, let slot):
            if slot?.kind == .http { webSockets.release(slot) }

        // MARK: WebSocket
        case .confirmUpgrade(let c, let upgrade):
            return webSockets.confirmUpgrade(c, upgrade: upgrade)
        case .established(let c, let slot):
            loop.frontDoor?.lwsSettled(c) // the handshake's header table is free again
            guard let slot else { return .hangUp }
            webSockets.established(c, slot: slot)
        case .received(_, let slot):
            guard let client = slot?.object(.webSocket, as: ClientConnection.self) else { return .hangUp }
            webSockets.received(client)
        case .writable(_, let slot):
            guard let client = slot?.object(.webSocket, as: ClientConnection.self) else { return .proceed }
            return writer.writeNext(client)
        case .closed(_, let slot):
            webSockets.release(slot)
        }
        return .proceed
    }
}
