import DrawCore
import DrawPresentation

/// A room's own entrant list, by its host (issues 15, 28): `PUT /api/rooms/ROOM/entrants`
/// replaces it (a list uploaded as text or JSON, or the URLs to fetch it from), `GET` reads it
/// back, `DELETE` removes it; an upload is checked before its body is read
/// (`RoomEntrantsAPI+UploadGate`). The work is `RoomChanges`'. Service thread only.
final class RoomEntrantsAPI {
    let config: ServerConfig
    unowned let directory: RoomDirectory
    unowned let changes: RoomChanges
    unowned let storage: ServerStorage

    init(config: ServerConfig, directory: RoomDirectory, changes: RoomChanges, storage: ServerStorage) {
        self.config = config
        self.directory = directory
        self.changes = changes
        self.storage = storage
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

    /// A refused upload's answer: `Retry-After` on a `503 busy` (the parses were full, or the
    /// list could not be read in time and nothing was changed).
    static func refusedUpload(_ refusal: HostRefusal) -> HTTPResponse {
        var r = HTTPResponse.refused(refusal)
        if refusal.code == .busy { r.extraHeader = (name: "Retry-After", value: String(RoomChanges.parseRetryAfterSeconds)) }
        return r
    }

    /// `PUT /api/rooms/ROOM/entrants` with the host key and a list in `format`: `200` with the
    /// list's summary once it is kept, or the refusal. JSON that names the lists' URLs instead
    /// (`{"usersUrl","lotteryUrl"}`) makes the room fetch its list when each draw starts.
    func replace(_ name: String, format: EntrantListFormat, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        // The body leaves the exchange: the parse holds the one copy, and frees it when done.
        let body = request.exchange.takeBody()
        if format == .jsonLists, let sources = RoomSourcesRequest.parse(body) {
            return replaceSources(name, sources, request)
        }
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            changes.replaceEntrants(of: room, hostKey: bearer, body: body, format: format) { result in
                switch result {
                case .success(let list): reply(.json(200, APIMessages.entrantsReplaced(room: name, entrants: list)))
                case .failure(let refusal): reply(Self.refusedUpload(refusal))
                }
            }
        }
    }

    private func replaceSources(_ name: String, _ parsed: Result<DrawSources, RoomSettingsRequest.Refusal>,
                                _ request: APIRequest) -> HTTPResponse? {
        let urls: DrawSources
        switch parsed {
        case .success(let u): urls = u
        case .failure(let why): return .json(why.code.httpStatus, APIMessages.error(why.code, message: why.message))
        }
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            changes.replaceSources(of: room, hostKey: bearer, with: urls) { refusal in
                reply(refusal.map(HTTPResponse.refused) ?? .json(200, APIMessages.entrantSourcesReplaced(room: name, sources: urls)))
            }
        }
    }

    /// `DELETE /api/rooms/ROOM/entrants`: the room draws from the operator's lists again.
    func remove(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            changes.removeEntrants(of: room, hostKey: bearer) { refusal in
                reply(refusal.map(HTTPResponse.refused) ?? .noContent)
            }
        }
    }

    /// `GET /api/rooms/ROOM/entrants` with the host key (issue 28): the room's own list as it is
    /// kept, so the host can look at it and edit it without pasting it again; `entrants` is `null`
    /// when the room draws from the operator's lists or from list URLs. Key-only, like the
    /// changes: before a draw the list is the host's working copy, not yet anyone's record.
    func read(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            if let refusal = directory.refuseHost(room, key: bearer) { return reply(.refused(refusal)) }
            if let list = room.ownList { return reply(.json(200, APIMessages.roomEntrants(room: name, entrants: list))) }
            guard room.entrants != nil else { return reply(.json(200, APIMessages.roomEntrants(room: name, entrants: nil))) }
            // Kept in the store, not in memory (a restart, another node's upload): read it there.
            let submitted = storage.roomJob({ store throws(StorageError) in try store.entrants(ofRoom: name) }) { result in
                switch result {
                case .success(let list): reply(.json(200, APIMessages.roomEntrants(room: name, entrants: list)))
                case .failure: reply(.json(503, APIMessages.error(.storageUnavailable)))
                }
            }
            if !submitted { reply(.json(503, APIMessages.error(.storageUnavailable))) }
        }
    }
}
