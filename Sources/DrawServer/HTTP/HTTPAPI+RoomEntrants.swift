import DrawCore
import DrawPresentation
import DrawTransport

extension HTTPAPI {
    /// `GET /api/rooms/ROOM/entrants` with the host key (issue 28): the room's own list as it is
    /// kept, so the host can look at it and edit it without pasting it again; `entrants` is `null`
    /// when the room draws from the operator's lists or from list URLs. Key-only, like the
    /// changes: before a draw the list is the host's working copy, not yet anyone's record.
    func getRoomEntrants(_ name: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            if let refusal = directory.refuseHost(room, key: bearer) { return reply(Self.refused(refusal)) }
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
