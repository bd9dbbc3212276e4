import DrawCore
import DrawPresentation

/// Scheduled draws (issue 30, docs/PROTOCOL.md §5.8): `PUT /api/rooms/ROOM/schedule` with
/// `{"at":"<RFC 3339>"}` schedules the room's next draw, `DELETE` cancels it, both with the host
/// key; a scheduled draw's record is public before it runs. The work is `DrawScheduler`'s.
/// Service thread only.
final class ScheduleAPI {
    unowned let directory: RoomDirectory
    unowned let scheduler: DrawScheduler

    init(directory: RoomDirectory, scheduler: DrawScheduler) {
        self.directory = directory
        self.scheduler = scheduler
    }

    /// `GET /api/draws/ID` of a draw still waiting for its time: its commitment and entrants
    /// (issue 30). `nil` when no scheduled draw has that id (the history answers).
    func waiting(drawId id: String) -> HTTPResponse? {
        scheduler.waiting(drawId: id).map { .json(200, ScheduledDrawJSON.record($0)) }
    }

    /// `201` with the published commitment, or the refusal.
    func schedule(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        let wanted: (at: Double, reveal: WinnerRevealMode?)
        switch ScheduleRequest.parse(request.body) {
        case .success(let r): wanted = r
        case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
        }
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            scheduler.schedule(in: room, hostKey: bearer, at: wanted.at, reveal: wanted.reveal) { result in
                switch result {
                case .success(let commitment): reply(.json(201, ScheduledDrawJSON.scheduled(room: name, commitment)))
                case .failure(let refusal): reply(.refused(refusal))
                }
            }
        }
    }

    /// `200` with the cancelled draw's id and its seed, or the refusal.
    func cancel(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            scheduler.cancel(in: room, hostKey: bearer) { result in
                switch result {
                case .success(let draw): reply(.json(200, ScheduledDrawJSON.cancelled(room: name, drawId: draw.drawId, seed: draw.seed)))
                case .failure(let refusal): reply(.refused(refusal))
                }
            }
        }
    }
}
