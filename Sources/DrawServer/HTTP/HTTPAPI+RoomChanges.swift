import DrawCore
import DrawPresentation
import DrawTransport

/// The host's changes to a room between draws (issue 15): its own entrant list
/// (`PUT`/`DELETE /api/rooms/ROOM/entrants`) and its settings (`PUT /api/rooms/ROOM/settings`).
/// Service thread only; the work is `RoomChanges`'.
extension HTTPAPI {
    /// The `Content-Type` check before a PUT's body is read: an entrant list is `text/plain` (one
    /// name per line) or `application/json` (the seed's two lists); settings are JSON. A PUT is
    /// never a CORS "simple request", so `text/plain` lets no other site's page send one unasked.
    func refusePut(_ wsi: Connection, _ exchange: HTTPExchange) -> HTTPResponse? {
        let type = wsi.header(.contentType)
        if case .roomEntrants = exchange.route, Self.listFormat(type) != nil { return nil }
        if case .roomSettings = exchange.route, JSONContentType.matches(type) { return nil }
        if case .roomSchedule = exchange.route, JSONContentType.matches(type) { return nil }
        let message: String
        if case .roomEntrants = exchange.route {
            message = Self.listTypeMessage
        } else {
            message = "Send the request with Content-Type: application/json."
        }
        var r = HTTPResponse.json(415, APIMessages.error(.unsupportedMediaType, message: message))
        r.closeAfter = true
        return r
    }

    static let listTypeMessage =
        "Send the list as Content-Type: text/plain (one name per line) or application/json ({\"users\":[…],\"usersInLottery\":[…]})."

    /// An entrant list's format from its `Content-Type` (parameters such as `charset` ignored).
    static func listFormat(_ header: String?) -> EntrantListFormat? {
        if JSONContentType.matches(header) { return .jsonLists }
        guard let header else { return nil }
        let mediaType = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return String(mediaType).trimmingBlanks().lowercased() == "text/plain" ? .plainText : nil
    }

    /// A PUT's response, or `nil` when it comes later.
    func apiPut(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        switch exchange.route {
        case .roomEntrants(let name):
            guard let format = Self.listFormat(wsi.header(.contentType)) else { return refusePut(wsi, exchange) }
            // The body leaves the exchange: the parse holds the one copy, and frees it when done.
            let body = exchange.takeBody()
            if format == .jsonLists, let request = RoomSourcesRequest.parse(body) {
                return putSources(name, request, exchange, wsi)
            }
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                changes.replaceEntrants(of: room, hostKey: bearer, body: body, format: format) { result in
                    switch result {
                    case .success(let list): reply(.json(200, APIMessages.entrantsReplaced(room: name, entrants: list)))
                    case .failure(let refusal): reply(Self.refusedUpload(refusal))
                    }
                }
            }
        case .roomSettings(let name):
            let settings: RoomSettings
            switch RoomSettingsRequest.parse(exchange.body) {
            case .success(let s): settings = s
            case .failure(let why): return .json(why.code.httpStatus, APIMessages.error(why.code, message: why.message))
            }
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                changes.replaceSettings(of: room, hostKey: bearer, with: settings) { [unowned self] refusal in
                    if let refusal { return reply(Self.refused(refusal)) }
                    reply(.json(200, APIMessages.settingsReplaced(room: name, settings: room.settings,
                                                                  schedule: room.schedule(defaults: config.schedule))))
                }
            }
        case .roomSchedule(let name):
            return scheduleDraw(name, exchange, wsi)
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    /// A refused upload's answer: `Retry-After` on a `503 busy` (the parses were full, or the
    /// list could not be read in time and nothing was changed).
    static func refusedUpload(_ refusal: HostRefusal) -> HTTPResponse {
        var r = refused(refusal)
        if refusal.code == .busy { r.extraHeader = (name: "Retry-After", value: String(RoomChanges.parseRetryAfterSeconds)) }
        return r
    }

    /// `PUT /api/rooms/ROOM/entrants` with `{"usersUrl","lotteryUrl"}`: the room's list is fetched
    /// from those URLs when each draw starts.
    private func putSources(_ name: String, _ request: Result<DrawSources, RoomSettingsRequest.Refusal>,
                            _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let urls: DrawSources
        switch request {
        case .success(let u): urls = u
        case .failure(let why): return .json(why.code.httpStatus, APIMessages.error(why.code, message: why.message))
        }
        let bearer = exchange.bearer
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            changes.replaceSources(of: room, hostKey: bearer, with: urls) { refusal in
                reply(refusal.map(Self.refused) ?? .json(200, APIMessages.entrantSourcesReplaced(room: name, sources: urls)))
            }
        }
    }

    /// `DELETE /api/rooms/ROOM/entrants`: the room draws from the operator's lists again.
    func deleteEntrants(_ name: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            changes.removeEntrants(of: room, hostKey: bearer) { refusal in
                reply(refusal.map(Self.refused) ?? HTTPResponse(status: 204, contentType: "application/json", body: []))
            }
        }
    }
}

/// The upload's checks before its body is read (issue 31, findings 1 and 4), in the order the API
/// answers them once the body is in: a key at all (401, first on every keyed operation), the type
/// (415), whether the server takes lists at all and the room (404), the key itself (403, in
/// constant time against the room's key hash). The
/// room is loaded from the store if it has to be, asynchronously. The full checks run again once
/// the body is in (a draw may have started meanwhile, the key may have been rotated).
extension HTTPAPI: UploadGate {
    func check(_ upload: UploadRequest, then verdict: @escaping (UploadVerdict) -> Void) {
        let key = BearerToken.parse(upload.authorization)
        guard key != nil else {
            return verdict(.refuse(.unauthorized, message: "Send the room's host key as Authorization: Bearer KEY."))
        }
        guard Self.listFormat(upload.contentType) != nil else {
            return verdict(.refuse(.unsupportedMediaType, message: Self.listTypeMessage))
        }
        guard config.entrantListReader != nil || config.roomURLSources != nil else {
            return verdict(.refuse(.notFound, message: "This server takes no entrant lists from hosts."))
        }
        guard RoomName.isValid(upload.room) else { return verdict(.refuse(.unknownRoom, message: nil)) }
        directory.withRoom(named: upload.room) { [unowned self] found in
            switch found {
            case .failure(let code):
                verdict(.refuse(code, message: nil))
            case .success(let room):
                if let refusal = directory.refuseHost(room, key: key) {
                    return verdict(.refuse(refusal.code, message: refusal.message))
                }
                verdict(.admit)
            }
        }
    }
}
