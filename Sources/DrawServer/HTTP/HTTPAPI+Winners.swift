import DrawPresentation
import DrawTransport

/// The host's actions on a draw's winners (issue 28): draw the next winner
/// (`POST /api/rooms/ROOM/draws/next`) and redraw a removed winner (`POST /api/rooms/ROOM/redraws`).
/// Service thread only.
extension HTTPAPI {
    /// `202 {"room":…,"status":"next"}` / `202 {"room":…,"status":"loading"}` once accepted, else
    /// the refusal's status and code.
    func hostDrawAction(_ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        switch exchange.route {
        case .nextWinner(let name):
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                reply(Self.accepted(draws.nextWinner(in: room, hostKey: bearer), room: name, status: "next"))
            }
        case .redraws(let name):
            let request: (drawId: String, userId: Int)
            switch HostDrawRequest.redraw(exchange.body) {
            case .success(let r): request = r
            case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
            }
            return withRoom(name, exchange, wsi) { [unowned self] room, reply in
                draws.redraw(in: room, hostKey: bearer, drawId: request.drawId, userId: request.userId) { refusal in
                    reply(Self.accepted(refusal, room: name, status: "loading"))
                }
            }
        default:
            return .json(404, APIMessages.error(.notFound))
        }
    }

    private static func accepted(_ refusal: ClientErrorCode?, room: String, status: String) -> HTTPResponse {
        if let refusal { return .json(refusal.httpStatus, APIMessages.error(refusal)) }
        var w = JSONWriter(capacity: 64)
        w.beginObject(); w.field("room", room); w.field("status", status); w.endObject()
        return .json(202, w.bytes)
    }
}
