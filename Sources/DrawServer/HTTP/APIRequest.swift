import DrawPresentation

/// One API request as its resource's handler sees it: the exchange (route, host key, body) and
/// the way to answer it later. No socket: the router makes it for a connection
/// (`HTTPAnswers.request`), a test for nothing at all. Service thread only.
///
/// Handlers copy what they need (the key, the parsed body) into the closures that answer later,
/// never the request or its exchange: a waiting request holds its exchange weakly, and a live
/// exchange is what tells it that the connection is still there (see `PendingRead`).
struct APIRequest {
    let exchange: HTTPExchange
    /// Makes the request wait for its answer and returns the one way to give it (see
    /// `HTTPAnswers.later`).
    let later: () -> (HTTPResponse) -> Void

    var bearer: String? { exchange.bearer }
    var body: [UInt8] { exchange.body }

    /// Runs `handle` with the room named `name` once it is in memory (loaded from the store if it
    /// has to be), or answers the lookup's error (`404 unknown_room`, `503 busy`, …). Returns the
    /// response when it is known at once, `nil` when it comes later.
    func withRoom(_ name: String, in directory: RoomDirectory,
                  _ handle: @escaping (Room, @escaping (HTTPResponse) -> Void) -> Void) -> HTTPResponse? {
        guard RoomName.isValid(name) else { return .json(404, APIMessages.error(.unknownRoom)) }
        let reply = later()
        directory.withRoom(named: name) { found in
            switch found {
            case .success(let room): handle(room, reply)
            case .failure(let code): reply(.json(code.httpStatus, APIMessages.error(code)))
            }
        }
        return nil
    }
}
