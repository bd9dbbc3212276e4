import DrawCore
import DrawPresentation
import DrawTransport
import Foundation
import Logging

/// The HTTP API's router: a request's lifecycle in lws' callbacks, its route to the resource
/// that answers it (`+Routes`), and what every request shares: the method and key checks, the
/// body's type and length checks (`+BodyChecks`), answers now or later (`HTTPAnswers`). The
/// resources own their endpoints: `RoomsAPI`, `RoomEntrantsAPI`, `DrawsAPI`, `ScheduleAPI`,
/// `RoomQRAPI`, the history (`HistoryReads`); health, metrics and static files are answered
/// here. Service thread only.
///
/// A response is prepared in the request callbacks and written whole in the next
/// HTTP_WRITEABLE (one `lws_write`); static files are streamed by lws' own file server.
final class HTTPAPI {
    let config: ServerConfig
    let metrics: ServerMetrics
    let metricsText: (@Sendable () -> String)?
    let staticFiles: StaticFiles
    unowned let loop: ServiceLoop
    unowned let directory: RoomDirectory
    let shared: any SharedRooms
    /// Every answer, now or later, and the requests waiting for theirs.
    let answers: HTTPAnswers
    /// What the history endpoints read.
    let history: HistoryReads
    let rooms: RoomsAPI
    /// A room's own list; also the front door's `UploadGate`.
    let entrants: RoomEntrantsAPI
    let draws: DrawsAPI
    let schedule: ScheduleAPI
    let qr: RoomQRAPI

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, metrics: ServerMetrics,
         metricsText: (@Sendable () -> String)?, staticFiles: StaticFiles,
         loop: ServiceLoop, directory: RoomDirectory, broadcaster: RoomBroadcaster, draws: DrawCoordinator,
         changes: RoomChanges, scheduler: DrawScheduler, shared: any SharedRooms, storage: ServerStorage) {
        self.config = config
        self.metrics = metrics
        self.metricsText = metricsText
        self.staticFiles = staticFiles
        self.loop = loop
        self.directory = directory
        self.shared = shared
        answers = HTTPAnswers(loop: loop, storage: storage)
        history = HistoryReads(store: storage.store, rooms: storage.rooms, shared: shared.records, archive: shared.archive,
                               entrantLists: broadcaster.entrantLists, logger: logger)
        rooms = RoomsAPI(config: config, clock: clock, logger: logger, metrics: metrics, directory: directory,
                         broadcaster: broadcaster, changes: changes)
        entrants = RoomEntrantsAPI(config: config, directory: directory, changes: changes, storage: storage)
        self.draws = DrawsAPI(directory: directory, draws: draws)
        schedule = ScheduleAPI(directory: directory, scheduler: scheduler)
        qr = RoomQRAPI(tls: config.tlsCertPath != nil, directory: directory)
    }

    /// LWS_CALLBACK_HTTP: a request's headers are complete. `slot` is empty (a keep-alive
    /// connection's earlier exchange was released).
    func request(_ wsi: Connection, slot: SessionSlot, path: String) -> TransportReply {
        let requested = loop.frontDoor?.takeWasPut(wsi) == true ? .put : wsi.method
        // HEAD is GET without the body, wherever GET is allowed.
        let method = requested == .head ? .get : requested
        let route = HTTPRoute.match(path)
        let maxBody = HTTPRoute.maxBodyBytes(method: method == .put ? "PUT" : "", path: path, standard: config.maxBodyBytes,
                                             upload: config.requestLimits.maxUploadBytes)
        let exchange = HTTPExchange(route: route,
                                    bearer: BearerToken.parse(wsi.header(.authorization)),
                                    maxBody: maxBody)
        exchange.method = method
        exchange.headOnly = requested == .head
        // The body the front door read; lws itself was told Content-Length: 0.
        if let body = loop.frontDoor?.takeBody(wsi) { _ = exchange.setBody(body) } // handed over, not copied
        slot.attach(exchange, kind: .http)
        // A body we will not read means the connection cannot be reused.
        let mayHaveBody = method == .post || method == .put || method == .patch

        func fail(_ code: ClientErrorCode, _ message: String? = nil, close: Bool = mayHaveBody, allow: String? = nil) -> TransportReply {
            var r = HTTPResponse.json(code.httpStatus, APIMessages.error(code, message: message))
            r.closeAfter = close
            r.extraHeader = allow.map { (name: "Allow", value: $0) }
            respond(r, to: exchange, wsi)
            return .proceed
        }

        if loop.phase.shuttingDown { return fail(.shuttingDown, close: true) }
        if loop.openConnections.count > config.maxConnections { return fail(.tooManyConnections, close: true) }
        let allowed = route.allowedMethods
        guard !allowed.isEmpty else { return fail(.notFound) }
        guard allowed.contains(method) else { return fail(.methodNotAllowed, allow: route.allowHeader) }
        // No key, no request: 401 before the type (415) or the body are looked at.
        if route.needsHostKey(method), exchange.bearer == nil {
            return fail(.unauthorized, "Send the room's host key as Authorization: Bearer KEY.")
        }

        switch method {
        case .post, .put:
            if let refusal = method == .put ? refusePut(wsi, exchange) : refusePost(wsi, route: route) {
                respond(refusal, to: exchange, wsi)
                return .proceed
            }
            if wsi.header(.transferEncoding) != nil {
                return fail(.badJSON, "Send the request body with a Content-Length header.", close: true)
            }
            guard let lengthText = wsi.header(.contentLength) else {
                // No Content-Length, no body: answer now (lws would otherwise wait for one).
                exchange.closeAfter = true
                if let r = apiBody(exchange, wsi) { respond(r, to: exchange, wsi) }
                return .proceed
            }
            guard let length = Int(lengthText.trimmingBlanks()), length >= 0 else {
                return fail(.badJSON, "Bad Content-Length.", close: true)
            }
            if length > maxBody { return fail(.bodyTooLarge, close: true) }
            // The body (even an empty one) arrives through HTTP_BODY / HTTP_BODY_COMPLETION.
            return .proceed
        case .delete:
            if let response = apiDelete(route, exchange, wsi) { respond(response, to: exchange, wsi) }
            return .proceed
        default:
            if case .staticFile(let p) = route { return serveStatic(wsi, exchange, p) }
            // `nil`: the answer comes later (`HTTPAnswers`).
            if let response = apiGet(route, wsi, exchange) { respond(response, to: exchange, wsi) }
            return .proceed
        }
    }

    /// LWS_CALLBACK_HTTP_BODY: a chunk of the request body.
    func body(_ wsi: Connection, _ exchange: HTTPExchange, _ chunk: UnsafeRawBufferPointer) {
        guard exchange.response == nil else { return }
        if !exchange.appendBody(chunk) {
            var r = HTTPResponse.json(413, APIMessages.error(.bodyTooLarge))
            r.closeAfter = true
            respond(r, to: exchange, wsi)
        }
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION: the whole body is in.
    func bodyComplete(_ wsi: Connection, _ exchange: HTTPExchange) {
        guard exchange.response == nil else { return }
        if let r = apiBody(exchange, wsi) { respond(r, to: exchange, wsi) }
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: one `lws_write` with the whole response, then end the
    /// transaction (keep-alive) or close.
    func writable(_ wsi: Connection, _ exchange: HTTPExchange) -> TransportReply {
        guard let r = exchange.takeResponse() else { return .proceed }
        // A 304 has no body and no Content-Length: only the validators (`cache.lines`).
        let written = r.status == 304 ? wsi.notModified(headers: r.cache?.lines ?? "", closeAfter: r.closeAfter) : wsi.respond(r)
        guard written, !r.closeAfter else { return .hangUp }
        return wsi.completeTransaction() ? .proceed : .hangUp
    }

    /// Sets the exchange's response and asks for the WRITEABLE that sends it.
    func respond(_ r: HTTPResponse, to exchange: HTTPExchange, _ wsi: Connection) {
        answers.respond(r, to: exchange, wsi)
    }
}
