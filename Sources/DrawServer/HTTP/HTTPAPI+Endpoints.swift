import DrawPresentation

/// The endpoints: what each route answers. Service thread only.
extension HTTPAPI {
    /// A GET's response, or `nil` when it is being read from the store and comes later.
    func apiGet(_ route: HTTPRoute, _ wsi: Connection, _ exchange: HTTPExchange) -> HTTPResponse? {
        switch route {
        case .health:
            return .json(200, APIMessages.health())
        case .metrics:
            guard let metricsText else { return .json(404, APIMessages.error(.notFound)) }
            metrics.flush()
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array(metricsText().utf8))
        case .room(let name):
            guard RoomName.isValid(name), let room = rooms.registry[name] else { return .json(404, APIMessages.error(.unknownRoom)) }
            return .json(200, rooms.snapshot(of: room, asMessage: false))
        case .draws(let name):
            return historyPage(room: name, query: wsi.queryArguments, exchange, wsi)
        case .draw(let id):
            return drawRecord(id: id, exchange, wsi)
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    func apiPost(_ exchange: HTTPExchange) -> HTTPResponse {
        switch exchange.route {
        case .rooms:
            let name: String?
            switch CreateRoomRequest.parse(exchange.body) {
            case .success(let n): name = n
            case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
            }
            switch rooms.createRoom(named: name) {
            case .success(let created):
                return .json(201, APIMessages.roomCreated(room: created.room, hostKey: created.hostKey))
            case .failure(let code):
                return .json(code.httpStatus, APIMessages.error(code))
            }
        case .draws(let name):
            guard RoomName.isValid(name), let room = rooms.registry[name] else { return .json(404, APIMessages.error(.unknownRoom)) }
            if let refusal = rooms.startDraw(in: room, hostKey: exchange.bearer) {
                return .json(refusal.httpStatus, APIMessages.error(refusal))
            }
            return .json(202, APIMessages.drawAccepted(room: name))
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// Serves a file from the public folder — only ever from inside it (see `StaticFiles`).
    func serveStatic(_ wsi: Connection, _ exchange: HTTPExchange, _ path: String) -> TransportReply {
        guard let file = staticFiles.resolve(path) else {
            respond(.json(404, APIMessages.error(.notFound)), to: exchange, wsi)
            return .proceed
        }
        // lws sends no body to a HEAD request itself.
        switch wsi.serveFile(file, contentType: StaticFiles.contentType(for: file), closeAfter: loop.closesEveryResponse) {
        case .failed: return .hangUp
        case .done: return wsi.completeTransaction() ? .proceed : .hangUp
        case .streaming: return .proceed // HTTP_FILE_COMPLETION ends the transaction
        }
    }
}
