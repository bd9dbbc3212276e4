import CLwsShim
import DrawPresentation
import Foundation

/// The HTTP side: JSON API, health, metrics, static files. Service thread only.
///
/// A response is prepared in the request callbacks and written whole in the next
/// HTTP_WRITEABLE (one `lws_write`); static files are streamed by lws' own file server.
extension LiveDrawServer {
    /// LWS_CALLBACK_HTTP: a request's headers are complete. Returns -1 to close.
    func httpRequest(_ wsi: OpaquePointer, session: UnsafeMutablePointer<ldlws_session>, path: String) -> Int32 {
        let requested = Lws.method(wsi)
        // HEAD is GET without the body, wherever GET is allowed.
        let method = requested == .head ? .get : requested
        let route = HTTPRoute.match(path)
        let exchange = HTTPExchange(route: route,
                                    bearer: BearerToken.parse(Lws.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION)),
                                    maxBody: config.maxBodyBytes)
        exchange.headOnly = requested == .head
        // The body the front door read; lws itself was told Content-Length: 0.
        if let body = frontDoor?.takeBody(wsi) { body.withUnsafeBytes { _ = exchange.appendBody($0) } }
        attach(exchange, kind: .http, to: session)
        // A body we will not read means the connection cannot be reused.
        let mayHaveBody = method == .post || method == .put || method == .patch

        func fail(_ code: ClientErrorCode, _ message: String? = nil, close: Bool = mayHaveBody, allow: String? = nil) -> Int32 {
            var r = HTTPResponse.json(code.httpStatus, APIMessages.error(code, message: message))
            r.closeAfter = close
            r.extraHeader = allow.map { (name: "Allow", value: $0) }
            respond(r, to: exchange, wsi)
            return 0
        }

        if shuttingDown { return fail(.shuttingDown, close: true) }
        if openConnections.count > config.maxConnections { return fail(.tooManyConnections, close: true) }
        let allowed = route.allowedMethods
        guard !allowed.isEmpty else { return fail(.notFound) }
        guard allowed.contains(method) else { return fail(.methodNotAllowed, allow: route.allowHeader) }

        switch method {
        case .post:
            if let refusal = refusePost(wsi, route: route) {
                respond(refusal, to: exchange, wsi)
                return 0
            }
            if Lws.header(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) != nil {
                return fail(.badJSON, "Send the request body with a Content-Length header.", close: true)
            }
            guard let lengthText = Lws.header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) else {
                // No Content-Length, no body: answer now (lws would otherwise wait for one).
                var r = apiPost(exchange)
                r.closeAfter = true
                respond(r, to: exchange, wsi)
                return 0
            }
            guard let length = Int(lengthText.trimmingBlanks()), length >= 0 else {
                return fail(.badJSON, "Bad Content-Length.", close: true)
            }
            if length > config.maxBodyBytes { return fail(.bodyTooLarge, close: true) }
            // The body (even an empty one) arrives through HTTP_BODY / HTTP_BODY_COMPLETION.
            return 0
        default:
            if case .staticFile(let p) = route { return serveStatic(wsi, exchange, p) }
            // `nil`: the storage thread answers later (see `answerFromStorage`).
            if let response = apiGet(route, wsi, exchange) { respond(response, to: exchange, wsi) }
            return 0
        }
    }

    /// LWS_CALLBACK_HTTP_BODY: a chunk of the request body.
    func httpBody(_ wsi: OpaquePointer, _ exchange: HTTPExchange, _ input: UnsafeMutableRawPointer?, _ len: Int) {
        guard exchange.response == nil, len > 0, let input else { return }
        if !exchange.appendBody(UnsafeRawBufferPointer(start: input, count: len)) {
            var r = HTTPResponse.json(413, APIMessages.error(.bodyTooLarge))
            r.closeAfter = true
            respond(r, to: exchange, wsi)
        }
    }

    /// LWS_CALLBACK_HTTP_BODY_COMPLETION: the whole body is in.
    func httpBodyComplete(_ wsi: OpaquePointer, _ exchange: HTTPExchange) {
        guard exchange.response == nil else { return }
        respond(apiPost(exchange), to: exchange, wsi)
    }

    /// LWS_CALLBACK_HTTP_WRITEABLE: one `lws_write` with the whole response, then end the
    /// transaction (keep-alive) or close.
    func httpWriteable(_ wsi: OpaquePointer, _ exchange: HTTPExchange) -> Int32 {
        guard let r = exchange.takeResponse() else { return 0 }
        guard Lws.respond(wsi, r), !r.closeAfter else { return -1 }
        return ldlws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Sets the exchange's response and asks for the WRITEABLE that sends it.
    func respond(_ r: HTTPResponse, to exchange: HTTPExchange, _ wsi: OpaquePointer) {
        var r = r
        r.headOnly = exchange.headOnly
        r.closeAfter = r.closeAfter || closesEveryResponse
        exchange.setResponse(r)
        ldlws_request_writable(wsi)
    }

    // MARK: endpoints

    /// A GET's response, or `nil` when it is being read from the store and comes later.
    private func apiGet(_ route: HTTPRoute, _ wsi: OpaquePointer, _ exchange: HTTPExchange) -> HTTPResponse? {
        switch route {
        case .health:
            return .json(200, APIMessages.health())
        case .metrics:
            guard let metricsText else { return .json(404, APIMessages.error(.notFound)) }
            metrics.flush()
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array(metricsText().utf8))
        case .room(let name):
            guard RoomName.isValid(name), let room = rooms[name] else { return .json(404, APIMessages.error(.unknownRoom)) }
            return .json(200, snapshot(of: room, asMessage: false))
        case .draws(let name):
            return historyPage(room: name, query: Lws.queryArguments(wsi), exchange, wsi)
        case .draw(let id):
            return drawRecord(id: id, exchange, wsi)
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    private func apiPost(_ exchange: HTTPExchange) -> HTTPResponse {
        switch exchange.route {
        case .rooms:
            let name: String?
            switch CreateRoomRequest.parse(exchange.body) {
            case .success(let n): name = n
            case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
            }
            switch createRoom(named: name) {
            case .success(let created):
                return .json(201, APIMessages.roomCreated(room: created.room, hostKey: created.hostKey))
            case .failure(let code):
                return .json(code.httpStatus, APIMessages.error(code))
            }
        case .draws(let name):
            guard RoomName.isValid(name), let room = rooms[name] else { return .json(404, APIMessages.error(.unknownRoom)) }
            if let refusal = startDraw(in: room, hostKey: exchange.bearer) {
                return .json(refusal.httpStatus, APIMessages.error(refusal))
            }
            return .json(202, APIMessages.drawAccepted(room: name))
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// Serves a file from the public folder — only ever from inside it (see `StaticFiles`).
    private func serveStatic(_ wsi: OpaquePointer, _ exchange: HTTPExchange, _ path: String) -> Int32 {
        guard let file = staticFiles.resolve(path) else {
            respond(.json(404, APIMessages.error(.notFound)), to: exchange, wsi)
            return 0
        }
        // lws sends no body to a HEAD request itself.
        let n = ldlws_http_serve_file_with(wsi, file, StaticFiles.contentType(for: file),
                                           closesEveryResponse ? UInt32(LDLWS_RESPOND_CLOSE) : 0)
        if n < 0 { return -1 }
        if n > 0 { return ldlws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        return 0 // lws streams it; HTTP_FILE_COMPLETION ends the transaction
    }
}
