import DrawCore
import DrawPresentation
import DrawTransport

/// The endpoints: what each route answers. Service thread only.
extension HTTPAPI {
    /// A GET's response, or `nil` when it is being read from the store and comes later.
    func apiGet(_ route: HTTPRoute, _ wsi: Connection, _ exchange: HTTPExchange) -> HTTPResponse? {
        switch route {
        case .health:
            // A balancer takes 503 as "send no one new here"; the viewers already here stay.
            if loop.phase.draining { return .json(503, APIMessages.healthDraining()) }
            return .json(200, shared.linkUp.map { APIMessages.health(clusterUp: $0) } ?? APIMessages.health())
        case .metrics:
            guard let metricsText else { return .json(404, APIMessages.error(.notFound)) }
            metrics.flush()
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4", body: Array(metricsText().utf8))
        case .room(let name):
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                reply(.json(200, broadcaster.snapshot(of: room, asMessage: false)))
            }
        case .draws(let name):
            return answer(history.historyPage(room: name, query: wsi.queryArguments, live: directory[name] != nil),
                          exchange, wsi)
        case .draw(let id):
            // A scheduled draw is public before it runs: its commitment and entrants (issue 30).
            if let waiting = scheduler.waiting(drawId: id) { return .json(200, ScheduledDrawJSON.record(waiting)) }
            return answer(history.drawRecord(id: id), exchange, wsi)
        case .drawEntrants(let id):
            return answer(history.drawEntrants(id: id, ifNoneMatch: wsi.header(.ifNoneMatch)), exchange, wsi)
        case .roomQR(let name):
            return roomQR(name, exchange, wsi)
        case .roomEntrants(let name):
            return getRoomEntrants(name, exchange, wsi)
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// A POST's response, or `nil` when it comes later (the store is asked first).
    func apiPost(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        switch exchange.route {
        case .rooms:
            let name: String?
            switch CreateRoomRequest.parse(exchange.body) {
            case .success(let n): name = n
            case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
            }
            let reply = later(exchange, wsi)
            directory.createRoom(named: name) { result in
                switch result {
                case .success(let created):
                    reply(.json(201, APIMessages.roomCreated(room: created.room, hostKey: created.hostKey)))
                case .failure(let code):
                    reply(.json(code.httpStatus, APIMessages.error(code)))
                }
            }
            return nil
        case .draws(let name):
            let bearer = exchange.bearer
            let reveal: WinnerRevealMode?
            switch HostDrawRequest.startOptions(exchange.body) {
            case .success(let mode): reveal = mode
            case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
            }
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                draws.startDraw(in: room, hostKey: bearer, reveal: reveal) { refusal in
                    if let refusal { return reply(.json(refusal.httpStatus, APIMessages.error(refusal))) }
                    reply(.json(202, APIMessages.drawAccepted(room: name)))
                }
            }
        case .nextWinner, .redraws:
            return hostDrawAction(exchange, wsi)
        case .roomKey(let name):
            let bearer = exchange.bearer
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                directory.rotateKey(of: room, hostKey: bearer) { result in
                    switch result {
                    case .success(let key): reply(.json(200, APIMessages.keyRotated(room: name, hostKey: key)))
                    case .failure(let refusal): reply(Self.refused(refusal))
                    }
                }
            }
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// A DELETE's response, or `nil` when it comes later.
    func apiDelete(_ route: HTTPRoute, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        if case .roomEntrants(let name) = route { return deleteEntrants(name, exchange, wsi) }
        if case .roomSchedule(let name) = route { return cancelScheduled(name, exchange, wsi) }
        guard case .room(let name) = route else { return .json(404, APIMessages.error(.notFound)) }
        let bearer = exchange.bearer
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            directory.deleteRoom(room, hostKey: bearer) { refusal in
                reply(refusal.map(Self.refused) ?? HTTPResponse(status: 204, contentType: "application/json", body: []))
            }
        }
    }

    static func refused(_ refusal: HostRefusal) -> HTTPResponse {
        .json(refusal.code.httpStatus, APIMessages.error(refusal.code, message: refusal.message))
    }

    /// Serves a file from the public folder — only ever from inside it (see `StaticFiles`).
    func serveStatic(_ wsi: Connection, _ exchange: HTTPExchange, _ path: String) -> TransportReply {
        guard let (file, validator) = staticFiles.resolve(path) else {
            respond(.json(404, APIMessages.error(.notFound)), to: exchange, wsi)
            return .proceed
        }
        // Validators let a returning browser revalidate instead of downloading the page again.
        if validator.matches(ifNoneMatch: wsi.header(.ifNoneMatch)) {
            guard wsi.notModified(headers: validator.headerLines, closeAfter: loop.closesEveryResponse) else { return .hangUp }
            return wsi.completeTransaction() ? .proceed : .hangUp
        }
        // lws sends no body to a HEAD request itself.
        switch wsi.serveFile(file, contentType: StaticFiles.contentType(for: file),
                             headers: validator.headerLines, closeAfter: loop.closesEveryResponse) {
        case .failed: return .hangUp
        case .done: return wsi.completeTransaction() ? .proceed : .hangUp
        case .streaming: return .proceed // HTTP_FILE_COMPLETION ends the transaction
        }
    }
}
