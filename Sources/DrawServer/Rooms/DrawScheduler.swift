import DrawCore
import DrawPresentation
import Logging

/// Scheduled draws (issue 30): the host schedules a room's draw for a time; its entrants, seed
/// and settings are fixed then and its commitment published at once (the room's snapshot and
/// `room` message, `GET /api/draws/ID`); at its time this node starts it by itself; the host may
/// cancel it before. Service thread only; the store is called on the rooms' thread.
///
/// Every draw waiting is in `book` (read from the store at startup, so a restart keeps them;
/// `ScheduledDrawBook` decides what each needs) and one timer wakes at the soonest. A draw due is first *claimed* from the store
/// (`ScheduledClaims`: exactly one node gets it; in cluster mode a lease that lapses if that node
/// dies before the draw's first step is recorded), then started through the start gate
/// like any draw (cluster mode: the room's lease). A draw that cannot start (a draw running in the
/// room) is tried again every second for the grace period (`ScheduleWindow.graceMs`), then
/// recorded missed; one whose time passed beyond the grace while the server was down is recorded
/// missed at startup. Cancelled and missed draws are records of their own (`recordUnrun`).
///
/// Cluster mode: times are Redis' clock, not this node's (issue 36: a node 30 s ahead started
/// every draw 30 s early). Every housekeeping tick measures the offset of Redis' `TIME` to this
/// node's clock (`ScheduledDrawStore.clockOffsetMs`) and every decision and timer uses the clock
/// corrected by it (`now()`); the claim itself is refused before the draw's time by Redis' clock
/// (`claimDue`), so a node whose offset is not measured yet (or is stale) cannot start early.
final class DrawScheduler {
    private let config: ServerConfig
    private let clock: any DrawClock
    private let random: any RandomSource
    private let logger: Logger
    private let metrics: ServerMetrics
    private unowned let loop: any RoomLoop
    private unowned let storage: ServerStorage
    private unowned let directory: RoomDirectory
    private unowned let broadcaster: RoomBroadcaster
    private unowned let draws: DrawCoordinator
    private let shared: any SharedRooms

    /// This node's claims in the store.
    private let claims: ScheduledClaims
    /// Which draws wait, and what each needs at a wake-up: the rules, as a value.
    private var book = ScheduledDrawBook()
    private var timer: (any ServiceTimer)?
    /// Cluster mode: seconds until the next read of the draws other nodes scheduled; a read is on
    /// its way while `refreshing`.
    private var untilRefresh = 0
    private var refreshing = false
    /// Cluster mode: how far Redis' clock is ahead of this node's (ms; negative: behind), as last
    /// measured; a measurement is on its way while `measuring`. 0 on one node.
    private var offsetMs = 0.0
    private var measuring = false
    /// An offset that moved by at least this much re-arms the timer.
    static let rearmOffsetMs = 20.0
    /// How often a claimed draw that could not start is tried again.
    static let retryMs: Double = 1_000
    /// Cluster mode: how often the shared store is read for draws scheduled through other nodes
    /// (their `room` message reached this node's viewers already; this is for its snapshots and
    /// for starting a draw whose scheduling node died).
    static let refreshSeconds = 5

    init(config: ServerConfig, clock: any DrawClock, random: any RandomSource, logger: Logger, metrics: ServerMetrics,
         loop: any RoomLoop, storage: ServerStorage, directory: RoomDirectory, broadcaster: RoomBroadcaster,
         draws: DrawCoordinator, shared: any SharedRooms) {
        self.config = config
        self.clock = clock
        self.random = random
        self.logger = logger
        self.metrics = metrics
        self.loop = loop
        self.storage = storage
        self.directory = directory
        self.broadcaster = broadcaster
        self.draws = draws
        self.shared = shared
        claims = ScheduledClaims(logger: logger, metrics: metrics, storage: storage)
    }

    private var window: ScheduleWindow { config.scheduleWindow }

    /// Epoch ms by the clock scheduled draws are timed by: Redis' in cluster mode (this node's,
    /// corrected by the offset measured), this node's otherwise.
    private func now() -> Double { clock.epochMillis() + offsetMs }

    /// The commitment of the draw waiting in `room`, if any.
    func commitment(ofRoom room: String) -> ScheduledDrawCommitment? { book.waiting[room]?.commitment }

    /// The draw `drawId` while it waits (for `GET /api/draws/ID`).
    func waiting(drawId: String) -> ScheduledDraw? { book.waiting(drawId: drawId) }

    /// Reads the draws waiting in the store (startup): each is armed, started at once or recorded
    /// missed, as its time says.
    func loadWaiting() {
        _ = storage.scheduleJob({ store throws(StorageError) in try store.scheduledDraws() }) { [unowned self] result in
            switch result {
            case .success(let found):
                book.merge(found)
                if !found.isEmpty { logger.info("scheduled draws waiting", metadata: ["count": "\(found.count)"]) }
                for draw in found { publish(room: draw.room) }
                wake()
            case .failure(let error):
                logger.error("could not read the scheduled draws", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Housekeeping, once a second: in cluster mode (the room store is shared, on its own
    /// thread), measures the offset to Redis' clock, and reads the draws waiting every
    /// `refreshSeconds`.
    func tick() {
        // Not while the link is down: the read would fail anyway, and hold up the rooms' thread.
        guard storage.schedules != nil, !storage.roomsShareDrawThread, shared.linkUp != false else { return }
        measureOffset()
        guard !refreshing else { return }
        untilRefresh -= 1
        guard untilRefresh <= 0 else { return }
        untilRefresh = Self.refreshSeconds
        refreshing = true
        let submitted = storage.scheduleJob({ store throws(StorageError) in try store.scheduledDraws() }) { [unowned self] result in
            refreshing = false
            guard case .success(let found) = result else { return } // the next turn reads again
            merge(found)
        }
        if !submitted { refreshing = false }
    }

    /// Reads the store's clock against this node's (one `TIME`, the round trip halved); a change
    /// re-arms the timer, so a draw waiting starts on time by the store's clock.
    private func measureOffset() {
        guard !measuring else { return }
        measuring = true
        let clock = self.clock
        let submitted = storage.scheduleJob({ store throws(StorageError) in try store.clockOffsetMs(from: clock) }) { [unowned self] result in
            measuring = false
            // A failed read keeps the last offset: the next tick measures again.
            guard case .success(let measured?) = result, measured.isFinite else { return }
            let moved = abs(measured - offsetMs) >= Self.rearmOffsetMs
            offsetMs = measured
            if moved { arm() }
        }
        if !submitted { measuring = false }
    }

    /// What the shared store holds now. This node's viewers were told by the other node's `room`
    /// message; only the rooms' snapshots are brought up to date.
    private func merge(_ found: [ScheduledDraw]) {
        for room in book.merge(found) { directory[room]?.scheduled = book.waiting[room]?.commitment }
        arm()
    }

    // MARK: The host's requests

    /// Schedules `room`'s next draw for `at` (epoch ms): the room's list is read and frozen now,
    /// the seed drawn, the beacon round R named (when the server has a beacon), and the
    /// commitment kept and published before the answer.
    func schedule(in room: Room, hostKey: String?, at: Double, reveal: WinnerRevealMode?,
                  then answer: @escaping (Result<ScheduledDrawCommitment, HostRefusal>) -> Void) {
        // The key may have been rotated through another node a moment ago (the soak found this
        // node refusing a rotated key for 30 s): a miss is checked again against the shared store.
        directory.checkHost(room, key: hostKey) { [unowned self] refusal in
            if let refusal { return answer(.failure(refusal)) }
            scheduleChecked(in: room, hostKey: hostKey, at: at, reveal: reveal, then: answer)
        }
    }

    private func scheduleChecked(in room: Room, hostKey: String?, at: Double, reveal: WinnerRevealMode?,
                                 then answer: @escaping (Result<ScheduledDrawCommitment, HostRefusal>) -> Void) {
        if let code = draws.refuseStart(in: room, hostKey: hostKey) { return answer(.failure(HostRefusal(code))) }
        if let refusal = window.refusal(at: at, now: now()) {
            return answer(.failure(HostRefusal(ScheduleRequest.code(refusal), refusal.message)))
        }
        let name = room.name
        guard book.begin(room: name) else { return answer(.failure(HostRefusal(.alreadyScheduled))) }
        draws.loadRoomPlayers(of: room) { [unowned self] result in
            switch result {
            case .failure(let error):
                book.end(room: name, kept: nil)
                answer(.failure(Self.refusal(error)))
            case .success(let merge):
                let winners = room.settings.winnerCount, now = self.now()
                guard DrawPlan.isValidWinnerCount(winners, entrants: merge.players.count) else {
                    book.end(room: name, kept: nil)
                    return answer(.failure(Self.refusal(.tooFewEntrants(entrants: merge.players.count, winners: winners))))
                }
                // The list took a while: the time must still be far enough ahead.
                if let refusal = window.refusal(at: at, now: now) {
                    book.end(room: name, kept: nil)
                    return answer(.failure(HostRefusal(ScheduleRequest.code(refusal), refusal.message)))
                }
                // With a beacon, the draw commits now to round R after `at` (docs/FAIRNESS.md §10).
                var beacon: DrawBeacon?
                if let settings = config.beacon?.settings {
                    guard let committed = ScheduledDraw.beacon(at: at, settings: settings) else {
                        book.end(room: name, kept: nil)
                        return answer(.failure(HostRefusal(.tooFarAhead, "The beacon's chain names no round a live draw could wait for at that time.")))
                    }
                    beacon = committed
                }
                guard let seed = Seed(bytes: random.bytes(Seed.byteCount)) else { preconditionFailure("RandomSource gave a short seed") }
                let draw = ScheduledDraw(drawId: DrawIdentifier.generate(using: random), room: name, at: at, createdAt: now,
                                         seed: seed, entrants: merge.players, warnings: merge.warnings,
                                         schedule: room.schedule(defaults: config.schedule), winners: winners,
                                         reveal: reveal ?? .eachRunningOn,
                                         sources: room.entrants?.sources ?? room.sourceURLs ?? draws.sources,
                                         beacon: beacon)
                keep(draw, then: answer)
            }
        }
    }

    /// Keeps `draw` in the store (or memory alone), then publishes it.
    private func keep(_ draw: ScheduledDraw, then answer: @escaping (Result<ScheduledDrawCommitment, HostRefusal>) -> Void) {
        let accepted = { [unowned self] in
            book.end(room: draw.room, kept: draw)
            publish(room: draw.room)
            logger.info("draw scheduled", metadata: ["room": "\(draw.room)", "drawId": "\(draw.drawId)",
                                                     "at": "\(RFC3339Time.text(epochMs: draw.at) ?? "")"])
            wake()
            answer(.success(draw.commitment))
        }
        guard storage.schedules != nil else { return accepted() }
        let submitted = storage.scheduleJob({ store throws(StorageError) in try store.schedule(draw) }) { [unowned self] result in
            switch result {
            case .success(true):
                accepted()
            case .success(false):
                book.end(room: draw.room, kept: nil)
                answer(.failure(HostRefusal(.alreadyScheduled)))
            case .failure(let error):
                book.end(room: draw.room, kept: nil)
                logger.error("could not keep a scheduled draw", metadata: ["room": "\(draw.room)", "error": "\(error)"])
                answer(.failure(HostRefusal(shared.storeFailure(error, what: "a scheduled draw"))))
            }
        }
        if !submitted {
            book.end(room: draw.room, kept: nil)
            answer(.failure(HostRefusal(.storageUnavailable)))
        }
    }

    /// Cancels `room`'s scheduled draw: it is recorded cancelled and its seed revealed (in the
    /// answer and the record).
    func cancel(in room: Room, hostKey: String?, then answer: @escaping (Result<ScheduledDraw, HostRefusal>) -> Void) {
        guard let hostKey, !hostKey.isEmpty else { return answer(.failure(HostRefusal(.unauthorized))) }
        guard room.keyHash.matches(hostKey) else {
            // Rotated through another node a moment ago? Read again before the 403.
            return directory.checkHost(room, key: hostKey) { [unowned self] refusal in
                if let refusal { return answer(.failure(refusal)) }
                cancelChecked(in: room, then: answer)
            }
        }
        cancelChecked(in: room, then: answer)
    }

    /// `cancel` once the key is checked.
    private func cancelChecked(in room: Room, then answer: @escaping (Result<ScheduledDraw, HostRefusal>) -> Void) {
        guard let draw = book.takeForCancel(room: room.name) else { return cancelShared(in: room, then: answer) }
        cancel(draw, then: answer)
    }

    /// Claims `draw`, records it cancelled and tells its room.
    private func cancel(_ draw: ScheduledDraw, then answer: @escaping (Result<ScheduledDraw, HostRefusal>) -> Void) {
        claim(draw, due: false) { [unowned self] got in
            guard got else { return answer(.failure(HostRefusal(.notScheduled))) }
            draws.recordUnrun(draw, reason: ScheduledDraw.cancelledReason) { [unowned self] _ in
                publish(room: draw.room)
                logger.info("scheduled draw cancelled", metadata: ["room": "\(draw.room)", "drawId": "\(draw.drawId)"])
                answer(.success(draw))
            }
        }
    }

    /// Cluster mode: a draw scheduled through another node that this one has not read yet (its
    /// reads are 5 s apart) is looked up in the shared store, so a cancel works through any node.
    private func cancelShared(in room: Room, then answer: @escaping (Result<ScheduledDraw, HostRefusal>) -> Void) {
        guard storage.schedules != nil, !storage.roomsShareDrawThread else { return answer(.failure(HostRefusal(.notScheduled))) }
        let name = room.name
        let submitted = storage.scheduleJob({ store throws(StorageError) in
            try store.scheduledDraws().first { $0.room == name }
        }) { [unowned self] result in
            switch result {
            case .success(let found?):
                guard let draw = book.takeForCancel(found: found) else { return answer(.failure(HostRefusal(.notScheduled))) }
                cancel(draw, then: answer)
            case .success(nil):
                answer(.failure(HostRefusal(.notScheduled)))
            case .failure:
                answer(.failure(HostRefusal(.storageUnavailable)))
            }
        }
        if !submitted { answer(.failure(HostRefusal(.storageUnavailable))) }
    }

    // MARK: Its time

    /// Handles every draw whose time came (`ScheduledDrawBook.due`), then arms the timer for the next.
    private func wake() {
        for action in book.due(now: now(), window: window) {
            // Its time came: whichever node claims it, the room's snapshot shows it waiting no more.
            switch action { case .start(let d, _), .miss(let d, _): directory[d.room]?.scheduled = nil }
            switch action {
            case .start(let draw, claimed: true): renew(draw) { [unowned self] in start(draw) }
            case .miss(let draw, claimed: true): renew(draw) { [unowned self] in miss(draw) }
            case .start(let draw, claimed: false): claim(draw, due: true) { [unowned self] got in if got { start(draw) } }
            case .miss(let draw, claimed: false): claim(draw, due: true) { [unowned self] got in if got { miss(draw) } }
            }
        }
        arm()
    }

    /// Arms the timer for the soonest draw waiting, or for the next try of a claimed one.
    private func arm() {
        guard let next = book.nextWakeMs(now: now(), retryMs: Self.retryMs) else { timer?.cancel(); return }
        if timer == nil { timer = loop.makeTimer { [unowned self] in wake() } }
        // Capped at a day: a far time is re-armed from the clock then (no overflow, no drift).
        timer?.schedule(afterNanos: UInt64(min(next, 86_400_000)) * 1_000_000 + 1_000_000)
    }

    /// Claims `draw` (`ScheduledClaims`); `then(true)` for the one node that got it. A draw whose
    /// time has not come by the store's clock, that another node is starting, or whose store
    /// failed waits again and is asked for again then.
    private func claim(_ draw: ScheduledDraw, due: Bool, then: @escaping (Bool) -> Void) {
        claims.claim(draw, due: due, retryMs: Self.retryMs) { [unowned self] answer in
            switch answer {
            case .won: then(true)
            case .lost: then(false)
            case .later(let inMs, let waiting):
                book.unclaimed(draw, retryAt: now() + inMs)
                if waiting { directory[draw.room]?.scheduled = book.waiting[draw.room]?.commitment }
                arm()
                then(false)
            }
        }
    }

    /// Starts a claimed draw in its room; a refusal within the grace period is tried again.
    private func start(_ draw: ScheduledDraw) {
        directory.withRoom(named: draw.room) { [unowned self] result in
            switch result {
            case .failure(.unknownRoom):
                miss(draw) // deleted meanwhile
            case .failure(let code):
                retryOrMiss(draw, code)
            case .success(let room):
                room.scheduled = nil
                draws.startScheduled(draw, in: room) { [unowned self] refusal in
                    guard let refusal else {
                        return logger.info("scheduled draw started", metadata: ["room": "\(draw.room)", "drawId": "\(draw.drawId)"])
                    }
                    retryOrMiss(draw, refusal)
                }
            }
        }
    }

    private func retryOrMiss(_ draw: ScheduledDraw, _ code: ClientErrorCode) {
        if code == .shuttingDown || code == .draining {
            // Another node, or the next start of this one, starts it (within the grace).
            return claims.giveBack(draw)
        }
        guard window.due(at: draw.at, now: now()) == .startNow else { return miss(draw) }
        book.retry(draw)
        arm()
    }

    /// A draw this node claimed and tries again (its room was busy): its claim is kept for another
    /// lease first, and `then` runs only while it is still this node's. A store that failed is
    /// asked again a second later (no start could be recorded meanwhile either).
    private func renew(_ draw: ScheduledDraw, then: @escaping () -> Void) {
        claims.renew(draw) { [unowned self] kept in
            switch kept {
            case true?: then()
            case false?: break
            case nil:
                book.retry(draw)
                arm()
            }
        }
    }

    /// Records `draw` missed (seed revealed) and tells its room.
    private func miss(_ draw: ScheduledDraw) {
        logger.warning("scheduled draw missed", metadata: ["room": "\(draw.room)", "drawId": "\(draw.drawId)"])
        draws.recordUnrun(draw, reason: ScheduledDraw.missedReason) { [unowned self] recorded in
            publish(room: draw.room)
            if recorded { claims.finish(drawId: draw.drawId) }
        }
    }

    /// Tells `room`'s viewers (here and on other nodes) what is scheduled there now.
    private func publish(room name: String) {
        guard let room = directory[name] else { return }
        room.scheduled = book.waiting[name]?.commitment
        let wire = WireMessages.room(name, info: room.info(defaults: config.schedule))
        broadcaster.broadcast(wire, in: room)
        shared.changed(room, wire: wire)
    }

    /// The host's answer for a list that could not be frozen.
    private static func refusal(_ error: DrawError) -> HostRefusal {
        switch error {
        case .noPlayers, .tooFewEntrants: return HostRefusal(.noEntrants, error.message)
        default: return HostRefusal(.listUnavailable, error.message)
        }
    }
}
