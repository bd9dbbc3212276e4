import DrawCore
import DrawPresentation

/// A room's draws, by its host (issue 28): `POST /api/rooms/ROOM/draws` starts one,
/// `POST …/draws/next` draws the next winner of a draw waiting for the host, `POST …/redraws`
/// redraws a removed winner. The work is `DrawCoordinator`'s. Service thread only.
final class DrawsAPI {
    unowned let directory: RoomDirectory
    unowned let draws: DrawCoordinator

    init(directory: RoomDirectory, draws: DrawCoordinator) {
        self.directory = directory
        self.draws = draws
    }

    /// `202 {"room":…,"status":"loading"}` once the start is accepted, else the refusal.
    func start(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        let reveal: WinnerRevealMode?
        switch HostDrawRequest.startOptions(request.body) {
        case .success(let mode): reveal = mode
        case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
        }
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            draws.startDraw(in: room, hostKey: bearer, reveal: reveal) { refusal in
                if let refusal { return reply(.json(refusal.httpStatus, APIMessages.error(refusal))) }
                reply(.json(202, APIMessages.drawAccepted(room: name)))
            }
        }
    }

    /// `202 {"room":…,"status":"next"}` once accepted, else the refusal's status and code.
    func nextWinner(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            draws.nextWinner(in: room, hostKey: bearer) { refusal in
                reply(Self.accepted(refusal, room: name, status: "next"))
            }
        }
    }

    /// `202 {"room":…,"status":"loading"}` once accepted, else the refusal's status and code.
    func redraw(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        let redraw: (drawId: String, userId: Int)
        switch HostDrawRequest.redraw(request.body) {
        case .success(let r): redraw = r
        case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
        }
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            draws.redraw(in: room, hostKey: bearer, drawId: redraw.drawId, userId: redraw.userId) { refusal in
                reply(Self.accepted(refusal, room: name, status: "loading"))
            }
        }
    }

    private static func accepted(_ refusal: ClientErrorCode?, room: String, status: String) -> HTTPResponse {
        if let refusal { return .json(refusal.httpStatus, APIMessages.error(refusal)) }
        var w = JSONWriter(capacity: 64)
        w.beginObject(); w.field("room", room); w.field("status", status); w.endObject()
        return .json(202, w.bytes)
    }
}
