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
    }

    /// Lists parsed at once (issue 31, finding 2): each takes a core and up to about its body's
    /// size again in memory while it runs, so two (the cores of a small host) at a time; the rest
    /// wait their turn in order.
    static let maxParses = 2
    /// Lists waiting for a parse; one more is refused at once with `503 busy` and `Retry-After`.
    /// With the front door's four upload slots this is rarely reached, but nothing else bounds
    /// small lists.
    static let maxParsesWaiting = 8
    static let parseRetryAfterSeconds = 5
    /// How long an upload may take from its body's arrival to its change going to the store
    /// (waiting for a parse, then the parse). Past it the server gives up with `503 busy` and
    /// changes nothing (finding 3: an answer is never cut off while the change goes on). Well
    /// under `HTTPAPI.answerTimeoutSeconds`; a 16 MiB list parses in about a second.
    static let uploadWorkNanos: UInt64 = 20_000_000_000

    /// Parses running now, and the ones waiting (each starts its parse, or gives up when late).
    private var parses = 0
    private var waitingParses = FIFO<() -> Void>()

    /// Reads `body` as the room's new list (off the service thread: a 100,000-name list takes a
    /// while, and only `maxParses` run at once), then keeps it. Answers the list as kept, or why
    /// not; nothing is kept when the answer is a refusal.
    func replaceEntrants(of room: Room, hostKey: String?, body: consuming [UInt8], format: EntrantListFormat,
                         then answer: @escaping (Result<RoomEntrants, HostRefusal>) -> Void) {
        guard let reader = config.entrantListReader else {
            return answer(.failure(HostRefusal(.notFound, "This server takes no entrant lists from hosts.")))
        }
        let deadline = clock.monotonicNanos() &+ Self.uploadWorkNanos
        // Held in a box so the parse can let go of the body as soon as it is done with it.
        let held = UploadBody(body)
        beginChange(of: room, hostKey: hostKey) { [unowned self] refusal in
            if let refusal { return answer(.failure(refusal)) }
            let giveUp = { [unowned self] (message: String) in
                room.endChange()
                directory.roomActivity(room)
                answer(.failure(HostRefusal(.busy, message)))
            }
            let back = executor.continuation { [unowned self] (result: Result<RoomEntrants, EntrantListError>) in
                parses -= 1
                startWaitingParse()
                guard clock.monotonicNanos() <= deadline else {
                    return giveUp("The list could not be read in time; nothing was changed. Try again shortly.")
                }
                switch result {
                case .failure(let error):
                    room.endChange()
                    directory.roomActivity(room)
                    answer(.failure(HostRefusal(ClientErrorCode(listError: error), error.message)))
                case .success(let list):
                    commitChange(of: room, list: .upload(list), settings: nil) { refusal in
                        answer(refusal.map { .failure($0) } ?? .success(list))
                    }
                }
            }
            let parse = { [unowned self] in
                guard clock.monotonicNanos() <= deadline else {
                    return giveUp("Too many lists are being read now; nothing was changed. Try again shortly.")
                }
                parses += 1
                // Rule 2: the work runs off the service thread and comes back as a service-thread job.
                Task.detached {
                    let result: Result<RoomEntrants, EntrantListError>
                    do throws(EntrantListError) { result = .success(try reader.read(held.take(), as: format)) } catch { result = .failure(error) }
                    back(result)
                }
            }
            if parses < Self.maxParses { return parse() }
            guard waitingParses.count < Self.maxParsesWaiting else {
                return giveUp("Too many lists are being read now; nothing was changed. Try again shortly.")
            }
            waitingParses.push(parse)
        }
    }

    /// A parse finished: the next waiting one starts (or gives up, when it waited too long).
    private func startWaitingParse() {
        while parses < Self.maxParses, let next = waitingParses.pop() { next() }
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
                answer(HostRefusal(shared.storeFailure))
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
