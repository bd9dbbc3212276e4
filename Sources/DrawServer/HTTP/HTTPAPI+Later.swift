import DrawPresentation
import DrawTransport

/// Answers that come later: a room that must be loaded from the store first, or a change the
/// store must make before the answer (a room created, deleted, a key rotated). Service thread only.
extension HTTPAPI {
    /// How long a request whose answer comes later may wait for it before lws closes the
    /// connection (issue 31, finding 3: lws' own 10 s handshake timeout cut off answers while the
    /// change went on, so a host was told nothing of a list it had replaced). Longer than any
    /// work the server bounds itself: an upload gives up with a coded 503 before it changes
    /// anything after `UploadParseQueue.Limits.standard.workNanos` (20 s), and the store's write that follows
    /// takes milliseconds; a room load or history read, the same.
    static let answerTimeoutSeconds = 120

    /// A way to answer `exchange` later, once: the request waits among `pendingReads` (an
    /// answer that finds the client gone is dropped, see `storageAnswered`). Calling it at once,
    /// before returning `nil` to lws, is fine too.
    func later(_ exchange: HTTPExchange, _ wsi: Connection) -> (HTTPResponse) -> Void {
        lastReadNumber += 1
        let number = lastReadNumber
        pendingReads[number] = PendingRead(connection: wsi, exchange: exchange)
        wsi.waitForAnswer(seconds: Self.answerTimeoutSeconds)
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
