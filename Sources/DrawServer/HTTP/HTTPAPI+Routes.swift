import DrawPresentation
import DrawTransport

/// Each route to the resource that answers it, by method. Service thread only.
extension HTTPAPI {
    /// A GET's response, or `nil` when it comes later. The `APIRequest` is made only for the
    /// routes that use one: health checks come often, and need no closure.
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
            return rooms.snapshot(name, answers.request(exchange, wsi))
        case .draws(let name):
            return answers.answer(history.historyPage(room: name, query: wsi.queryArguments, live: directory[name] != nil),
                                  exchange, wsi)
        case .draw(let id):
            // A scheduled draw is public before it runs: its commitment and entrants (issue 30).
            if let waiting = schedule.waiting(drawId: id) { return waiting }
            return answers.answer(history.drawRecord(id: id), exchange, wsi)
        case .drawEntrants(let id):
            return answers.answer(history.drawEntrants(id: id, ifNoneMatch: wsi.header(.ifNoneMatch)), exchange, wsi)
        case .roomQR(let name):
            return qr.svg(name, host: wsi.header(.host), answers.request(exchange, wsi))
        case .roomEntrants(let name):
            return entrants.read(name, answers.request(exchange, wsi))
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// The response to a request with a body (POST, PUT), or `nil` when it comes later.
    func apiBody(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        exchange.method == .put ? apiPut(exchange, wsi) : apiPost(exchange, wsi)
    }

    /// A POST's response, or `nil` when it comes later.
    private func apiPost(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let request = answers.request(exchange, wsi)
        switch exchange.route {
        case .rooms: return rooms.create(request)
        case .draws(let name): return draws.start(name, request)
        case .nextWinner(let name): return draws.nextWinner(name, request)
        case .redraws(let name): return draws.redraw(name, request)
        case .roomKey(let name): return rooms.rotateKey(name, request)
        default: return .json(404, APIMessages.error(.notFound))
        }
    }

    /// A PUT's response, or `nil` when it comes later.
    private func apiPut(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let request = answers.request(exchange, wsi)
        switch exchange.route {
        case .roomEntrants(let name):
            guard let format = RoomEntrantsAPI.listFormat(wsi.header(.contentType)) else { return refusePut(wsi, exchange) }
            return entrants.replace(name, format: format, request)
        case .roomSettings(let name): return rooms.replaceSettings(name, request)
        case .roomSchedule(let name): return schedule.schedule(name, request)
        default: return .json(404, APIMessages.error(.notFound))
        }
    }

    /// A DELETE's response, or `nil` when it comes later.
    func apiDelete(_ route: HTTPRoute, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let request = answers.request(exchange, wsi)
        switch route {
        case .room(let name): return rooms.delete(name, request)
        case .roomEntrants(let name): return entrants.remove(name, request)
        case .roomSchedule(let name): return schedule.cancel(name, request)
        default: return .json(404, APIMessages.error(.notFound))
        }
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
