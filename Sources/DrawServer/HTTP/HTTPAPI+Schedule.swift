import DrawCore
import DrawPresentation
import DrawTransport

/// Scheduled draws (issue 30, docs/PROTOCOL.md §5.8): `PUT /api/rooms/ROOM/schedule` with
/// `{"at":"<RFC 3339>"}` schedules the room's next draw, `DELETE` cancels it. Both with the host
/// key. Service thread only.
extension HTTPAPI {
    /// `201` with the published commitment, or the refusal.
    func scheduleDraw(_ name: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        let request: (at: Double, reveal: WinnerRevealMode?)
        switch ScheduleRequest.parse(exchange.body) {
        case .success(let r): request = r
        case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
        }
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            scheduler.schedule(in: room, hostKey: bearer, at: request.at, reveal: request.reveal) { result in
                switch result {
                case .success(let commitment): reply(.json(201, ScheduledDrawJSON.scheduled(room: name, commitment)))
                case .failure(let refusal): reply(Self.refused(refusal))
                }
            }
        }
    }

    /// `200` with the cancelled draw's id and its seed, or the refusal.
    func cancelScheduled(_ name: String, _ exchange: HTTPExchange, _ wsi: Connection) -> HTTPResponse? {
        let bearer = exchange.bearer
        return withRoom(name, exchange, wsi) { [unowned self] room, reply in
            scheduler.cancel(in: room, hostKey: bearer) { result in
                switch result {
                case .success(let draw): reply(.json(200, ScheduledDrawJSON.cancelled(room: name, drawId: draw.drawId, seed: draw.seed)))
                case .failure(let refusal): reply(Self.refused(refusal))
                }
            }
        }
    }
}
