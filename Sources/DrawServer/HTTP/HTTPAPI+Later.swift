import DrawPresentation
import DrawTransport

/// Answers that come later: a room that must be loaded from the store first, or a change the
/// store must make before the answer (a room created, deleted, a key rotated). Service thread only.
extension HTTPAPI {
    /// A way to answer `exchange` later, once: the request waits among `pendingReads` (an
    /// answer that finds the client gone is dropped, see `storageAnswered`). Calling it at once,
    /// before returning `nil` to lws, is fine too.
    func later(_ exchange: HTTPExchange, _ wsi: Connection) -> (HTTPResponse) -> Void {
        lastReadNumber += 1
        let number = lastReadNumber
        pendingReads[number] = PendingRead(connection: wsi, exchange: exchange)
        return { [unowned self] response in self.storageAnswered(request: number, response) }
    }

    /// Runs `handle` with the room named `name` once it is in memory (loaded from the store if it
    /// has to be), or answers the lookup's error (`404 unknown_room`, `503 busy`, …). Returns the
    /// response when it is known at once, `nil` when it comes later.
    func withRoom(_ name: String, _ exchange: HTTPExchange, _ wsi: Connection,
                  _ handle: @escaping (Room, @escaping (HTTPResponse) -> Void) -> Void) -> HTTPResponse? {
        guard RoomName.isValid(name) else { return .json(404, APIMessages.error(.unknownRoom)) }
        let reply = later(exchange, wsi)
        directory.withRoom(named: name) { found in
            switch found {
            case .success(let room): handle(room, reply)
            case .failure(let code): reply(.json(code.httpStatus, APIMessages.error(code)))
            }
        }
        return nil
    }
}
