import DrawCore
import DrawPresentation
import Logging

/// What a room's host may change between draws (issue 15): the room's own entrant list
/// (`PUT`/`DELETE /api/rooms/ROOM/entrants`) and its settings (`PUT /api/rooms/ROOM/settings`).
/// Service thread only; the store is changed on the storage thread, and memory only once it has
/// answered, so a restart shows exactly what the host was told.
///
/// Refused while a draw is loading, running or being recorded, and while another change is on its
/// way (409 `draw_running`): a draw keeps the list and settings it started with.
final class RoomChanges {
    private let config: ServerConfig
    private let clock: any DrawClock
    private let logger: Logger
    private let executor: ServiceExecutor
    private unowned let storage: ServerStorage
    private unowned let directory: RoomDirectory
    private unowned let broadcaster: RoomBroadcaster
    private let shared: any SharedRooms

    init(config: ServerConfig, clock: any DrawClock, logger: Logger, executor: ServiceExecutor, storage: ServerStorage,
         directory: RoomDirectory, broadcaster: RoomBroadcaster, shared: any SharedRooms) {
        self.config = config
        self.clock = clock
        self.logger = logger
        self.executor = executor
        self.storage = storage
        self.directory = directory
        self.broadcaster = broadcaster
        self.shared = shared
        parses = UploadParseQueue(clock: clock, executor: executor)
    }

    /// `Retry-After` on a `503 busy` when the parses are full or a list could not be read in time.
    static let parseRetryAfterSeconds = 5

    /// Where lists wait for their parse, and how many run at once (`UploadParseQueue`).
    let parses: UploadParseQueue

    /// Reads `body` as the room's new list (off the service thread: a 100,000-name list takes a
    /// while, and only `UploadParseQueue.Limits.running` run at once), then keeps it. Answers the
    /// list as kept, or why not; nothing is kept when the answer is a refusal.
    func replaceEntrants(of room: Room, hostKey: String?, body: consuming [UInt8], format: EntrantListFormat,
                         then answer: @escaping (Result<RoomEntrants, HostRefusal>) -> Void) {
        guard let reader = config.entrantListReader else {
            return answer(.failure(HostRefusal(.notFound, "This server takes no entrant lists from hosts.")))
        }
        let deadline = parses.deadline()
        // Held in a box so the parse can let go of the body as soon as it is done with it.
        let held = UploadBody(body)
        beginChange(of: room, hostKey: hostKey) { [unowned self] refusal in
            if let refusal { return answer(.failure(refusal)) }
            parses.submit(by: deadline, { () -> Result<RoomEntrants, EntrantListError> in
                do throws(EntrantListError) { return .success(try reader.read(held.take(), as: format)) } catch { return .failure(error) }
            }, then: { [unowned self] outcome in
                switch outcome {
                case .failure(let refusal):
                    room.endChange()
                    directory.roomActivity(room)
                    let message = refusal == .full
                        ? "Too many lists are being read now; nothing was changed. Try again shortly."
                        : "The list could not be read in time; nothing was changed. Try again shortly."
                    answer(.failure(HostRefusal(.busy, message)))
                case .success(.failure(let error)):
                    room.endChange()
                    directory.roomActivity(room)
                    answer(.failure(HostRefusal(ClientErrorCode(listError: error), error.message)))
                case .success(.success(let list)):
                    commitChange(of: room, list: .upload(list), settings: nil) { refusal in
                        answer(refusal.map { .failure($0) } ?? .success(list))
                    }
                }
            })
        }
    }

    /// Keeps `urls` as where the room's list is fetched from at each draw's start, once the
    /// operator's rules for room sources allow them (checked here, without network: a name's
    /// addresses are checked when a draw connects). Replaces an uploaded list.
    func replaceSources(of room: Room, hostKey: String?, with urls: DrawSources,
                        then answer: @escaping (HostRefusal?) -> Void) {
        guard let fetcher = config.roomURLSources else {
            return answer(HostRefusal(.sourceURLsOff, ClientErrorCode.sourceURLsOff.defaultMessage))
        }
        beginChange(of: room, hostKey: hostKey) { [unowned self] refusal in
            if let refusal { return answer(refusal) }
            if let why = fetcher.refusal(of: urls) {
                room.endChange()
                directory.roomActivity(room)
                return answer(HostRefusal(ClientErrorCode(sourceRefusal: why.reason), why.message))
            }
            commitChange(of: room, list: .urls(urls), settings: nil, then: answer)
        }
    }

    /// Forgets the room's own list: it draws from the operator's lists again.
    func removeEntrants(of room: Room, hostKey: String?, then answer: @escaping (HostRefusal?) -> Void) {
        beginChange(of: room, hostKey: hostKey) { [unowned self] refusal in
            if let refusal { return answer(refusal) }
            commitChange(of: room, list: .remove, settings: nil, then: answer)
        }
    }

    /// Replaces the room's settings, once checked against the operator's limits.
    func replaceSettings(of room: Room, hostKey: String?, with settings: RoomSettings,
                         then answer: @escaping (HostRefusal?) -> Void) {
        if let why = config.roomSettingsLimits.violation(in: settings) {
            return answer(HostRefusal(.invalidSettings, why))
        }
        beginChange(of: room, hostKey: hostKey) { [unowned self] refusal in
            if let refusal { return answer(refusal) }
            commitChange(of: room, list: nil, settings: settings, then: answer)
        }
    }

    /// The checks every change shares (the host key in constant time, no draw, no other change),
    /// then marks the room as changing. The room is read again first where another node may have
    /// changed it: the key may have been rotated there.
    private func beginChange(of room: Room, hostKey: String?, then go: @escaping (HostRefusal?) -> Void) {
        shared.refresh(room, forViewer: false) { [unowned self] refusal in
            if let refusal { return go(HostRefusal(refusal)) }
            if let refusal = directory.refuseHost(room, key: hostKey) { return go(refusal) }
            guard !room.deleting else { return go(HostRefusal(.unknownRoom)) }
            guard room.beginChange() else {
                return go(HostRefusal(.drawRunning, "Wait for the draw to end, then change the room's list or settings."))
            }
            go(nil)
        }
    }

    /// Keeps the change (`list` `nil`: the list stays as it is), then applies it to memory.
    private func commitChange(of room: Room, list: Room.ListChange?, settings: RoomSettings?,
                              then answer: @escaping (HostRefusal?) -> Void) {
        let name = room.name, at = clock.epochMillis()
        let apply = { [unowned self] in
            room.applyChange(list: list, settings: settings, at: at, keepsOwnList: storage.rooms == nil)
            directory.roomActivity(room)
            // Viewers connected now see the change without reconnecting (here and on other nodes).
            let wire = WireMessages.room(room.name, info: room.info(defaults: config.schedule))
            broadcaster.broadcast(wire, in: room)
            shared.changed(room, wire: wire)
        }
        guard storage.rooms != nil else {
            apply()
            return answer(nil)
        }
        let submitted = storage.roomJob({ store throws(StorageError) -> Bool in
            switch list {
            case .upload(let entrants)?: return try store.replaceEntrants(ofRoom: name, with: entrants, at: at)
            case .remove?: return try store.replaceEntrants(ofRoom: name, with: nil, at: at)
            case .urls(let urls)?: return try store.replaceSourceURLs(ofRoom: name, with: urls, at: at)
            case nil: break
            }
            if let settings { return try store.replaceSettings(ofRoom: name, with: settings, at: at) }
            return true
        }) { [unowned self] result in
            switch result {
            case .success(true):
                apply()
                logger.info("room changed", metadata: ["room": "\(name)", "what": "\(list != nil ? "entrants" : "settings")"])
                answer(nil)
            case .success(false):
                room.endChange()
                answer(HostRefusal(.unknownRoom))
            case .failure(let error):
                room.endChange()
                logger.error("could not change a room", metadata: ["room": "\(name)", "error": "\(error)"])
                answer(HostRefusal(shared.storeFailure(error, what: list != nil ? "a room's list" : "a room's settings")))
            }
        }
        if !submitted {
            room.endChange()
            answer(HostRefusal(.storageUnavailable))
        }
    }
}

/// An upload's body on its way to the parse: taken out once, so the only reference is the
/// parse's own and the bytes are freed when it returns, not when the closures holding the box go.
private final class UploadBody: @unchecked Sendable {
    private var bytes: [UInt8]?

    init(_ bytes: consuming [UInt8]) { self.bytes = bytes }

    /// The body, once (empty after). Called by one parse only, after the service thread let go.
    func take() -> [UInt8] {
        defer { bytes = nil }
        return bytes ?? []
    }
}
