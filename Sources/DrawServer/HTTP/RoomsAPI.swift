import DrawCore
import DrawPresentation
import Logging

/// The rooms themselves: `POST /api/rooms` creates one (at most so many per address,
/// `roomCreationPerMinute`), `GET /api/rooms/ROOM` reads its snapshot, `DELETE` deletes it,
/// `POST …/key` rotates its host key, `PUT …/settings` replaces its settings. The work is the
/// room owners' (`RoomDirectory`, `RoomChanges`); this turns requests into their calls and their
/// results into answers. Service thread only.
final class RoomsAPI {
    let config: ServerConfig
    let clock: any DrawClock
    let logger: Logger
    let metrics: ServerMetrics
    unowned let directory: RoomDirectory
    unowned let broadcaster: RoomBroadcaster
    unowned let changes: RoomChanges
    /// Room creations per client address.
    private var creations: AddressRateLimiter

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, metrics: ServerMetrics,
         directory: RoomDirectory, broadcaster: RoomBroadcaster, changes: RoomChanges) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        self.directory = directory
        self.broadcaster = broadcaster
        self.changes = changes
        creations = AddressRateLimiter(ratePerSecond: config.roomCreationPerMinute / 60,
                                       burst: Double(config.roomCreationBurst),
                                       capacity: config.roomCreationAddresses)
    }

    /// `429` when the address (`ClientAddress.budgetKey`) has created too many rooms lately, or
    /// `nil` to go on. Asked before the body is read, so the connection closes after the answer.
    func refuseCreation(from address: String) -> HTTPResponse? {
        guard case .limited(let seconds) = creations.take(address, nowNanos: clock.monotonicNanos()) else { return nil }
        metrics.roomCreationLimited()
        logger.debug("room creation rate-limited", metadata: ["address": "\(address)"])
        let message = "Too many rooms created from this address; try again in \(seconds) s."
        var r = HTTPResponse.json(429, APIMessages.error(.rateLimited, message: message))
        r.extraHeader = (name: "Retry-After", value: String(seconds))
        r.closeAfter = true
        return r
    }

    /// `POST /api/rooms`: `201` with the room and its host key once the room is kept.
    func create(_ request: APIRequest) -> HTTPResponse? {
        let name: String?
        switch CreateRoomRequest.parse(request.body) {
        case .success(let n): name = n
        case .failure(let code): return .json(code.httpStatus, APIMessages.error(code))
        }
        let reply = request.later()
        directory.createRoom(named: name) { result in
            switch result {
            case .success(let created):
                reply(.json(201, APIMessages.roomCreated(room: created.room, hostKey: created.hostKey)))
            case .failure(let code):
                reply(.json(code.httpStatus, APIMessages.error(code)))
            }
        }
        return nil
    }

    /// `GET /api/rooms/ROOM`: what a joining viewer would see, as a plain object. While a step
    /// of the room's draw is not durable yet (cluster mode, issue 36) the answer waits for it,
    /// as a joiner does: it would show the step before the cluster holds it.
    func snapshot(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        request.withRoom(name, in: directory) { [unowned self] room, reply in
            broadcaster.steps.whenAppended(room.name) { [unowned self] _ in
                reply(.json(200, broadcaster.snapshot(of: room, asMessage: false)))
            }
        }
    }

    /// `DELETE /api/rooms/ROOM` with the host key: `204`, or the refusal.
    func delete(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            directory.deleteRoom(room, hostKey: bearer) { refusal in
                reply(refusal.map(HTTPResponse.refused) ?? .noContent)
            }
        }
    }

    /// `POST /api/rooms/ROOM/key` with the host key: `200` with the new key, or the refusal.
    func rotateKey(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            directory.rotateKey(of: room, hostKey: bearer) { result in
                switch result {
                case .success(let key): reply(.json(200, APIMessages.keyRotated(room: name, hostKey: key)))
                case .failure(let refusal): reply(.refused(refusal))
                }
            }
        }
    }

    /// `PUT /api/rooms/ROOM/settings` with the host key (issue 15): `200` with the settings and
    /// the schedule they make, or the refusal. Between draws only (`RoomChanges`).
    func replaceSettings(_ name: String, _ request: APIRequest) -> HTTPResponse? {
        let bearer = request.bearer
        let settings: RoomSettings
        switch RoomSettingsRequest.parse(request.body) {
        case .success(let s): settings = s
        case .failure(let why): return .json(why.code.httpStatus, APIMessages.error(why.code, message: why.message))
        }
        return request.withRoom(name, in: directory) { [unowned self] room, reply in
            changes.replaceSettings(of: room, hostKey: bearer, with: settings) { [unowned self] refusal in
                if let refusal { return reply(.refused(refusal)) }
                reply(.json(200, APIMessages.settingsReplaced(room: name, settings: room.settings,
                                                              schedule: room.schedule(defaults: config.schedule))))
            }
        }
    }
}
