import DrawCore
import DrawPresentation

/// Rooms kept in the room store (issue 13): creating one, bringing one back into memory on
/// demand, deleting one, rotating its key, recording its activity. Every store call runs on the
/// storage thread (`ServerStorage.roomJob`); each continues here, on the service thread, when its
/// answer comes through the inbox. Without a room store (`--data-dir off`) the same calls work on
/// memory alone, and rooms last as long as the process.
///
/// Memory holds only the rooms in use (`RoomRegistry`); any other is loaded by the first lookup
/// that misses (`withRoom`), and every lookup of the same name while it loads waits for that one
/// load (`LoadWaiters`).
extension RoomDirectory {
    /// Loads in flight at once (distinct room names). Beyond, a lookup of another unloaded room is
    /// answered `busy` (HTTP 503; a WebSocket gets the `error` and closes with 1013): a flood of
    /// joins to many unknown names fills the storage thread's queue no further.
    static let maxLoadsInFlight = 256

    /// What the storage thread hands back for a room it found.
    struct LoadedRoom: Sendable {
        let record: RoomRecord
        /// The room's latest finished draw, for its snapshot's `lastResult`.
        var lastResult: FinishedDraw?
        /// Cluster mode: what the cluster's store shows of the room's draw.
        var view: StoredRoomView?
    }

    /// Draws looked at, newest first, for a loaded room's last result: a room whose last this many
    /// draws all failed or were aborted shows none (its history still lists everything).
    static let lastResultSearch = 20

    /// Creates a room (`POST /api/rooms`) and answers once it is kept for good: with a room store
    /// only after the row is committed, so a crash right after the 201 cannot lose it. A `nil`
    /// name gets a generated one. The key is handed out once, here; the room keeps its hash.
    func createRoom(named requested: String?,
                    then answer: @escaping (Result<(room: String, hostKey: String), ClientErrorCode>) -> Void) {
        let name: String
        if let requested {
            guard RoomName.isValid(requested) else { return answer(.failure(.badRoomName)) }
            name = requested
        } else {
            name = "room-" + Hex.encode(random.bytes(5))
        }
        guard registry[name] == nil else { return answer(.failure(.roomExists)) }
        guard !registry.isFull else { return answer(.failure(.tooManyRooms)) }
        if let why = shared.unavailable { return answer(.failure(why)) }
        let key = HostKey.generate(using: random), hash = HostKeyHash(of: key)
        guard storage.rooms != nil else {
            return answer(addCreated(name, hash).map { _ in (name, key) })
        }
        let record = RoomRecord(name: name, keyHash: hash, createdAt: clock.epochMillis())
        let createdAt = record.createdAt
        let submitted = storage.roomJob({ store throws(StorageError) in try store.createRoom(record) }) { [unowned self] result in
            switch result {
            case .success:
                // Kept for good: the answer is 201 even if memory is full now (the room loads on
                // its first use instead).
                if case .success(let room) = addCreated(name, hash) { room.touched(at: createdAt) }
                answer(.success((name, key)))
            case .failure(.duplicateRoom):
                answer(.failure(.roomExists))
            case .failure(let error):
                logger.error("could not keep a new room", metadata: ["room": "\(name)", "error": "\(error)"])
                answer(.failure(shared.storeFailure(error, what: "a new room")))
            }
        }
        if !submitted { answer(.failure(.storageUnavailable)) }
    }

    /// Puts a newly created room in memory (idle until someone joins).
    private func addCreated(_ name: String, _ hash: HostKeyHash) -> Result<Room, ClientErrorCode> {
        let room: Room
        switch registry.create(named: name, nowNanos: clock.monotonicNanos(), build: { makeRoom(name: $0, keyHash: hash) }) {
        case .failure(.exists): return .failure(.roomExists)
        case .failure(.full): return .failure(.tooManyRooms)
        case .success(let made): room = made
        }
        metrics.rooms.record(registry.count)
        logger.info("room created", metadata: ["room": "\(name)"])
        return .success(room)
    }

    /// Calls `body` with the room named `name`: at once when it is in memory, else once the
    /// store has answered (`unknownRoom` when it keeps no such room; `busy` over the load caps;
    /// `storageUnavailable`; `tooManyRooms` when memory is full of rooms in use; `shuttingDown`).
    func withRoom(named name: String, forViewer: Bool = false, _ body: @escaping (Result<Room, ClientErrorCode>) -> Void) {
        guard forViewer else { return withRoom(named: name, viewer: false, body) }
        // A viewer's lookup may prepare for the join (cluster mode subscribes the room before
        // reading its view, see `ClusterRooms.viewReader`); once it joined, or did not, that is
        // settled.
        withRoom(named: name, viewer: true) { [unowned self] result in
            body(result)
            shared.lookupSettled(name)
        }
    }

    private func withRoom(named name: String, viewer: Bool, _ body: @escaping (Result<Room, ClientErrorCode>) -> Void) {
        if let room = registry[name] {
            if room.deleting { return body(.failure(.unknownRoom)) }
            // A room another node may have changed or deleted meanwhile is read again first.
            if shared.mayBeStale(room) {
                // With the shared store away the room as this node knows it will do: viewers may
                // still join.
                return shared.refresh(room, forViewer: viewer) { refusal in
                    body(refusal.flatMap { $0 == .clusterUnavailable ? nil : .failure($0) } ?? .success(room))
                }
            }
            return body(.success(room))
        }
        guard RoomName.isValid(name), storage.rooms != nil else { return body(.failure(.unknownRoom)) }
        // Not "unknown": the room may well exist, and a page told so would stop reconnecting.
        guard !phase.shuttingDown else { return body(.failure(.shuttingDown)) }
        switch loads.add(body, for: name) {
        case .joined:
            return
        case .refused:
            metrics.roomLoadRefused()
            return body(.failure(.busy))
        case .startLoad:
            break
        }
        guard viewer else { return load(name, viewer: false) }
        shared.prepareViewer(of: name) { [unowned self] in load(name, viewer: true) }
    }

    /// Reads the room's record (and what `SharedRooms` reads with it) on the rooms' thread, and its
    /// last result from the draw store: in the same job when the two share a thread, else in a
    /// second job on the storage thread.
    private func load(_ name: String, viewer: Bool) {
        let draws = storage.store, search = Self.lastResultSearch, readView = shared.viewReader(for: name, forViewer: viewer)
        let together = storage.roomsShareDrawThread
        let submitted = storage.roomJob({ store throws(StorageError) -> LoadedRoom? in
            guard let record = try store.room(named: name) else { return nil }
            var last: FinishedDraw?
            if together, let draws { last = try Self.lastResult(of: name, in: draws, search: search) }
            return LoadedRoom(record: record, lastResult: last, view: readView())
        }) { [unowned self] result in
            guard !together, case .success(var found?) = result else { return loaded(name, result) }
            let read = storage.drawJob({ draws throws(StorageError) in
                try Self.lastResult(of: name, in: draws, search: search)
            }) { [unowned self] last in
                // The room is there either way: a history that cannot be read now shows no last result.
                found.lastResult = (try? last.get()) ?? nil
                loaded(name, .success(found))
            }
            if !read { loaded(name, result) }
        }
        if !submitted { loaded(name, .failure(.closed(path: "the room store"))) }
    }

    /// The store answered a load: build the room (unless something put it in memory meanwhile,
    /// e.g. its creation's answer) and hand it to every waiter.
    private func loaded(_ name: String, _ result: Result<LoadedRoom?, StorageError>) {
        let waiters = loads.take(name)
        let outcome: Result<Room, ClientErrorCode>
        switch result {
        case .success(nil):
            outcome = registry[name].map { .success($0) } ?? .failure(.unknownRoom)
        case .success(let loaded?):
            if let room = registry[name] {
                outcome = .success(room)
            } else {
                let built = registry.create(named: name, nowNanos: clock.monotonicNanos(), build: {
                    let room = makeRoom(name: $0, keyHash: loaded.record.keyHash, lastResult: loaded.lastResult)
                    room.touched(at: loaded.record.lastActivityAt)
                    room.adopt(loaded.record)
                    if let view = loaded.view { room.remote = RemoteRoomView(stored: view) }
                    return room
                })
                outcome = built.mapError { _ in .tooManyRooms }
                if case .success = built {
                    metrics.rooms.record(registry.count)
                    logger.debug("room loaded", metadata: ["room": "\(name)"])
                }
            }
        case .failure(let error):
            logger.error("could not load a room", metadata: ["room": "\(name)", "error": "\(error)"])
            outcome = .failure(.storageUnavailable)
        }
        for waiter in waiters { waiter(outcome) }
        if case .success(let room) = outcome { roomActivity(room) }
    }

    /// The latest finished draw of `room` among its last `search` draws, rebuilt from its record.
    /// Storage thread only.
    static func lastResult(of room: String, in store: RecoveringDrawStore,
                                   search: Int) throws(StorageError) -> FinishedDraw? {
        let request: DrawPageRequest
        do { request = try DrawPageRequest(limit: search) } catch { return nil }
        let page = try store.list(room: room, page: request)
        guard let summary = page.draws.first(where: { $0.status == .finished }),
              let record = try store.record(id: summary.drawId) else { return nil }
        return FinishedDraw(record: record)
    }

    /// Records that the room was used (a draw started), so it does not expire. Once per use, not
    /// per join: each is a write on the storage thread, whose result nobody waits for.
    func touch(_ room: Room) {
        guard room.name != RoomName.lobby else { return }
        let name = room.name, at = clock.epochMillis()
        room.touched(at: at)
        _ = storage.roomJob({ store throws(StorageError) in try store.touchRoom(named: name, at: at) }) { [unowned self] result in
            if case .failure(let error) = result {
                logger.warning("could not record a room's activity", metadata: ["room": "\(name)", "error": "\(error)"])
            }
        }
    }
}
