import DrawCore
import DrawPresentation
import DrawTransport

/// One room on this node: who watches it, what they have been sent, and the state a snapshot
/// shows. Touched only on the service thread.
///
/// The room is the bus *subscriber* side: it encodes each `DrawEvent` for the fan-out and keeps
/// the last result. Running the draw is `DrawRunner`'s job (the publisher side), and what phase
/// the draw is in is its `DrawSession`'s alone: the room asks it (`current`, `isRunning`) rather
/// than keeping a second copy that could disagree. (A node that only watches a room over a
/// networked bus would need a session fed from the events it receives; there is none today.)
final class Room {
    let name: String
    /// The hash of the room's host key (the key itself is never kept, see `HostKeyHash`);
    /// replaced when the host rotates the key. Never logged or sent.
    var keyHash: HostKeyHash
    /// When the store last heard of the room's activity (epoch ms), as far as this node knows: the
    /// expiry check touches rooms in use whose last touch is getting old (`RoomDirectory+Expiry`).
    private(set) var touchedAtMs: Double = 0
    /// Being deleted (`DELETE /api/rooms/ROOM` waits for the store): no draw may start meanwhile.
    var deleting = false
    /// What the host chose for the room's draws (`PUT .../settings`), as kept with the room.
    var settings = RoomSettings()
    /// The room's own list, summed up; `nil`: it draws from the operator's lists.
    var entrants: RoomEntrantsSummary?
    /// The own list itself, kept here only without a room store (`--data-dir off`); with one it
    /// is read from the store when a draw starts.
    var ownList: RoomEntrants?
    /// The URLs the room's list is fetched from at each draw's start (`PUT .../entrants` with
    /// `usersUrl`/`lotteryUrl`); `nil` when it has none. Never set together with `entrants`.
    var sourceURLs: DrawSources?
    /// The draw its host scheduled, as published (`DrawScheduler` keeps it current); `nil`: none.
    var scheduled: ScheduledDrawCommitment?
    /// A list or settings change is on its way to the store: no draw starts meanwhile, and no
    /// second change (each answers 409 `draw_running`), so a draw never starts from a half-known
    /// room.
    private(set) var changing = false
    /// Cluster mode: a start waits for the room's lease (`awaitLease`).
    private(set) var leasePending = false
    /// Cluster mode: answers from the shared store this room waits for (a record read, a lease);
    /// the room stays in memory while any is owed (`awaitShared`).
    private(set) var clusterWaits = 0
    /// Cluster mode: what this node heard of draws that run on other nodes, for snapshots.
    var remote = RemoteRoomView()
    private(set) var members = ContiguousArray<ClientConnection>()
    /// Recent broadcasts; clients hold cursors into it.
    private(set) var ring: BroadcastRing<RoomMessage>
    /// Members that speak protocol v1: only while there are any are v1 variants made.
    private(set) var v1Members = 0

    private(set) var lastResult: FinishedDraw?
    /// The encoded `draw` and `lastResult` of the room's snapshot, and the `version` they were
    /// made at (see `snapshotParts`).
    private var snapshotCache: (version: UInt64, parts: SnapshotParts)?
    /// Bumped by every change of what a snapshot shows: an applied event, a restored result, a
    /// dropped runner.
    private var version: UInt64 = 0
    /// How often the snapshot's parts were encoded (tests: a join storm encodes once).
    private(set) var snapshotEncodings = 0

    var presence: PresenceCoalescer
    private let presenceIntervalMs: Int
    /// The `loading` message while the room holds it back (`ServerConfig.loadingNoticeMs`).
    private(set) var heldLoading: [UInt8]?

    // What only a room in use needs is made on first use by the server and dropped by
    // `releaseBuffers()` once the room is idle again, so an empty room costs little (issue 11):
    /// Releases `heldLoading`; made by the first draw's `loading`.
    var loadingTimer: (any ServiceTimer)?
    /// Made by the first viewer change.
    var presenceTimer: (any ServiceTimer)?
    /// Made by the first draw.
    var runner: DrawRunner?

    /// Monotonic time since when the room has been idle (`isIdle`); `nil` while in use. Kept by
    /// `RoomRegistry`.
    var idleSince: UInt64?

    init(name: String, keyHash: HostKeyHash, outboundQueueLimit: Int, presenceIntervalMs: Int,
         lastResult: FinishedDraw? = nil) {
        self.name = name
        self.keyHash = keyHash
        self.lastResult = lastResult
        ring = BroadcastRing(capacity: max(1, outboundQueueLimit))
        self.presenceIntervalMs = presenceIntervalMs
        presence = PresenceCoalescer(intervalMs: presenceIntervalMs)
    }

    /// Viewers on this node.
    var viewers: Int { members.count }
    /// Cluster mode: viewers of the room on the other nodes, as they last reported them.
    var otherNodesViewers = 0
    /// The count viewers are shown (`presence`, rounds, snapshots): the whole cluster's.
    var shownViewers: Int { members.count + otherNodesViewers }

    /// Nobody watches and no draw is loading, running or waiting for a record.
    var isIdle: Bool { members.isEmpty && clusterWaits == 0 && !changing && !hasWork }

    /// Whether a draw is loading, running, or waiting for its record.
    var isBusy: Bool { runner?.isBusy ?? false }
    /// Whether a draw is busy or still owed an answer (a load, a write): see `DrawRunner.hasWork`.
    var hasWork: Bool { runner?.hasWork ?? false }

    /// Drops the ring, the timers and the runner of an idle room; they are made again on use.
    /// Not from inside one of the room's own timers or runner calls (it frees them): the
    /// registry calls it from its sweep. What a snapshot shows (`current`, `lastResult`) stays.
    func releaseBuffers() {
        guard isIdle else { return }
        ring.releaseStorage()
        runner = nil
        version &+= 1
        snapshotCache = nil // a running draw's entrants: not kept for a room nobody watches
        presenceTimer = nil
        loadingTimer = nil
        // A presence timer that was armed is gone: start the coalescer afresh, or it would wait
        // for that timer forever.
        presence = PresenceCoalescer(intervalMs: presenceIntervalMs)
    }

    /// What viewers have been told of the current draw, as the room's draw session says.
    var current: RoomView.Current {
        switch runner?.session.visible ?? .idle {
        case .idle: return .idle
        case .loading: return .loading
        case .running(let plan, let startedAt, let shown): return .running(plan, startedAt: startedAt, shown: shown)
        }
    }

    func view() -> RoomView {
        RoomView(room: name, viewers: shownViewers, current: current, lastResult: lastResult)
    }

    /// A snapshot's `draw` and `lastResult`, JSON.
    struct SnapshotParts {
        let draw: [UInt8]
        let lastResult: [UInt8]
    }

    /// The snapshot's costly parts, encoded once per change and shared by every joiner until the
    /// next (issue 17: a join storm of 10,000 encoded a running draw's entrants 10,000 times).
    /// `viewers` and `serverTime` differ per joiner, so the envelope around them is not kept.
    func snapshotParts() -> SnapshotParts {
        if let cache = snapshotCache, cache.version == version { return cache.parts }
        let parts = SnapshotParts(draw: WireMessages.snapshotDraw(current, progress: runner?.session.revealProgress),
                                  lastResult: WireMessages.snapshotLastResult(lastResult))
        snapshotEncodings += 1
        snapshotCache = (version, parts)
        return parts
    }

    // MARK: what the host chose

    /// Takes the room's record as kept (at a load, or read again after another node changed it):
    /// its key always; its list and settings unless a change of this node's is on its way (the
    /// draw that follows keeps what it started with).
    func adopt(_ record: RoomRecord) {
        keyHash = record.keyHash
        guard !changing else { return }
        settings = record.settings
        entrants = record.entrants
        sourceURLs = record.sourceURLs
    }

    /// The schedule of the room's next draw over the operator's `defaults`. A stored setting that
    /// no longer makes a valid schedule (edited by hand) falls back to them.
    func schedule(defaults: RoundSchedule) -> RoundSchedule {
        settings.schedule(defaults: defaults) ?? defaults
    }

    /// The room's next draw as its snapshot shows it.
    func info(defaults: RoundSchedule) -> RoomInfo {
        RoomInfo(settings: settings, schedule: schedule(defaults: defaults), entrants: entrants, scheduled: scheduled)
    }

    /// A change of the room's list: an uploaded one, list URLs, or none (the operator's lists).
    /// Each replaces whatever the room had.
    enum ListChange {
        case upload(RoomEntrants)
        case urls(DrawSources)
        case remove
    }

    /// Starts a change of the list or settings: refused (false) while a draw is busy, a start
    /// waits for its gate, or another change is on its way.
    func beginChange() -> Bool {
        guard !isBusy, !leasePending, !changing else { return false }
        changing = true
        return true
    }

    /// The change was refused or failed: the room is as it was.
    func endChange() {
        changing = false
    }

    /// The change the store kept (`list` `nil`: the list stays; `keepsOwnList`: no room store, so
    /// an uploaded list is kept here), made at `at` (epoch ms). Ends the change.
    func applyChange(list: ListChange?, settings newSettings: RoomSettings?, at: Double, keepsOwnList: Bool) {
        changing = false
        if let list {
            var uploaded: RoomEntrants?
            if case .upload(let list) = list { uploaded = list }
            entrants = uploaded?.summary
            ownList = keepsOwnList ? uploaded : nil
            if case .urls(let urls) = list { sourceURLs = urls } else { sourceURLs = nil }
        }
        if let newSettings { settings = newSettings }
        touchedAtMs = max(touchedAtMs, at)
    }

    // MARK: bookkeeping

    /// The store heard of the room's activity at `at` (epoch ms); never moves back.
    func touched(at: Double) {
        touchedAtMs = max(touchedAtMs, at)
    }

    /// The host's new key is kept (its hash), at `at`.
    func replaceKey(_ hash: HostKeyHash, at: Double) {
        keyHash = hash
        touched(at: at)
    }

    /// An answer from the shared store is owed to the room (`true`) or came (`false`); the room
    /// stays in memory while any is owed.
    func awaitShared(_ owed: Bool) {
        clusterWaits += owed ? 1 : -1
    }

    /// A start waits for the room's lease (`true`), or the answer came (`false`); an answer is owed
    /// meanwhile.
    func awaitLease(_ pending: Bool) {
        leasePending = pending
        awaitShared(pending)
    }

    /// Holds a `loading` back (the broadcaster shows it if the next message is late).
    func holdLoading(_ bytes: [UInt8]) {
        heldLoading = bytes
    }

    /// The held-back `loading`, now given up (shown, or replaced by what followed it).
    func takeHeldLoading() -> [UInt8]? {
        defer { heldLoading = nil }
        return heldLoading
    }

    // MARK: membership

    /// Adds a client; it will receive every broadcast from now on.
    func add(_ client: ClientConnection) {
        client.room = self
        client.cursor = ring.nextSeq
        client.memberIndex = members.count
        members.append(client)
        if client.version == .v1 { v1Members += 1 }
    }

    /// Removes a client (swap-remove, O(1)). Safe to call twice.
    func remove(_ client: ClientConnection) {
        let i = client.memberIndex
        guard i >= 0, i < members.count, members[i] === client else { return }
        let last = members.removeLast()
        if i < members.count {
            members[i] = last
            last.memberIndex = i
        }
        client.memberIndex = -1
        if client.version == .v1 { v1Members -= 1 }
    }

    // MARK: events

    /// The last result as the history has it, for a room brought back after a restart; a draw
    /// that finished here meanwhile is newer and stays.
    func restoreLastResult(_ result: FinishedDraw) {
        if lastResult == nil {
            lastResult = result
            version &+= 1
        }
    }

    /// Keeps a finished draw's result for snapshots. Returns the wire message to broadcast.
    func apply(_ event: DrawEvent) -> [UInt8] {
        // The draw session moved on (it publishes every change viewers see), or the result did.
        version &+= 1
        if case .finished(let plan, let startedAt, let finishedAt) = event {
            lastResult = FinishedDraw(plan: plan, startedAt: startedAt, finishedAt: finishedAt)
        }
        return WireMessages.encode(event, room: name, viewers: shownViewers)
    }

    /// Whether a draw's rounds are being shown (they carry the viewer count meanwhile).
    var isRunning: Bool { runner?.session.isShowingRounds ?? false }

    /// Stores a broadcast once; every member now owes it (see `RoomBroadcaster.broadcast`).
    func append(_ message: RoomMessage) {
        ring.append(message)
    }
}
