import DrawCore
import Foundation
import DrawPresentation
import Logging

/// Cluster mode behind the room owners' seams (docs/SCALING.md), and the composition of the
/// cluster's owners: the lease gate for starts (`ClusterStartGate`, the rooms' `DrawStartGate`),
/// other nodes' draws shown here (`ClusterEventReceiver`), this node's own going out
/// (`FencedDraws`, the rooms' `DrawStepLog`), the history lines owed (`HistoryOutbox`), the
/// write-back once Redis came back (`ClusterRebuild`). What it answers itself is what rooms
/// share beyond draw events (`SharedRooms`): records read again where another node may have
/// changed them, viewers' subscriptions, snapshots of other nodes' draws, records shared with
/// every node, deletions and changes announced, presence reported. Service thread only; the
/// blocking calls run on the `ClusterNode`'s worker (or the rooms' thread, where Redis is read)
/// and come back as service-thread jobs.
final class ClusterRooms: SharedRooms {
    let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private unowned let storage: ServerStorage
    private let entrantLists: EntrantLists
    /// The owners this one works with, set once they exist (`attach`).
    private unowned(unsafe) var directory: RoomDirectory!
    private unowned(unsafe) var broadcaster: RoomBroadcaster!
    /// Viewers' lookups waiting for their room's subscription (`prepareViewer`).
    private let subscriptions: SubscriptionWaits
    /// This node's own draws as they go out to the cluster, fenced (and stopped when refused).
    let ownDraws: FencedDraws
    /// The history lines this node owes the shared history (`nil` without one, or without a
    /// draw store).
    private let history: HistoryOutbox?
    /// Copies every draw the cluster ended into this node's store (`nil` without one).
    private let archiver: RecordsArchiver?
    /// Other nodes' draws as this node shows them: their events, the draws seen ending, the
    /// views read back.
    let receiver: ClusterEventReceiver
    /// The lease gate for starts (the room owners' `DrawStartGate`).
    let gate: ClusterStartGate
    /// What this node holds, written back once Redis came back after an outage.
    private let rebuild: ClusterRebuild
    /// The rooms this node last reported viewers in (so it reports 0 once).
    private var reportedPresence: [String: Int] = [:]

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, loop: any RoomLoop, storage: ServerStorage,
         entrantLists: EntrantLists) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.storage = storage
        self.entrantLists = entrantLists
        subscriptions = SubscriptionWaits(loop: loop)
        ownDraws = FencedDraws(node: node, clock: clock, logger: logger, entrantLists: entrantLists, loop: loop)
        receiver = ClusterEventReceiver(node: node, clock: clock, logger: logger, entrantLists: entrantLists)
        gate = ClusterStartGate(node: node, clock: clock, logger: logger, loop: loop, receiver: receiver,
                                ownDraws: ownDraws)
        history = HistoryOutbox.make(node: node, storage: storage, loop: loop, clock: clock, logger: logger)
        archiver = RecordsArchiver.make(node: node, storage: storage, loop: loop, clock: clock, logger: logger)
        rebuild = ClusterRebuild(node: node, clock: clock, logger: logger, storage: storage, history: history,
                                 receiver: receiver)
    }

    /// Wires the owners in (they are made after this one, which they are handed) and starts
    /// taking the channel's messages.
    func attach(directory: RoomDirectory, broadcaster: RoomBroadcaster) {
        self.directory = directory
        self.broadcaster = broadcaster
        // Both read a room's record again before they go on: another node may have changed it.
        let refresh = { [unowned self] (room: Room, done: @escaping (ClientErrorCode?) -> Void) in
            self.refresh(room, forViewer: false, then: done)
        }
        receiver.attach(directory: directory, broadcaster: broadcaster, refresh: refresh)
        gate.attach(directory: directory, refresh: refresh)
        rebuild.attach(directory: directory)
        let receiver = self.receiver
        ownDraws.attach(directory: directory,
                        ended: { [unowned receiver] room, drawId in receiver.ownEnded(drawId, in: room) }) {
            [unowned receiver] room, drawId, end in receiver.showClusterEnd(of: drawId, end, in: room)
        }
        node.subscriptionConfirmed = { [unowned self] room in subscriptions.confirmed(room) }
        subscriptions.confirmedLate = { [unowned self] name in
            node.readView(room: name) { [weak self] view in
                guard let self, let view, let room = registry[name] else { return }
                receiver.resync(room, with: view)
            }
        }
        history?.heldByEscrow = { [unowned node] room, held in
            if held { node.orphanSuspects.insert(room) } else { node.orphanSuspects.remove(room) }
        }
        history?.resume()
        node.tookOver = { [unowned self] room, draw, token, endedAt in
            history?.takeoverEnded(drawId: draw.drawId, room: room, token: token, seedHex: draw.seedHex,
                                   roundsShown: draw.roundsShown, endedAt: endedAt)
        }
    }

    private var registry: RoomRegistry { directory.registry }

    // MARK: SharedRooms, the simple answers

    var unavailable: ClientErrorCode? { node.linkUp ? nil : .clusterUnavailable }
    /// Redis full (`-OOM`) is `cluster_full`, as for starts, and said once per episode
    /// (`ClusterStoreFull`); anything else is Redis out of reach.
    func storeFailure(_ error: StorageError, what: String) -> ClientErrorCode {
        guard error.isOutOfMemory else { return .clusterUnavailable }
        node.storeFull.refused(what, reason: error.description)
        return .clusterFull
    }
    var linkUp: Bool? { node.linkUp }
    var records: (any SharedDrawRecords)? { node.services.records }
    var archive: (any DrawArchive)? { node.services.archive }
    func mayBeStale(_ room: Room) -> Bool { room.viewers == 0 && !room.hasWork }
    func viewersChanged(_ room: Room) { node.watch(room: room.name, viewers: room.viewers) }
    func evicted(_ room: String) {
        node.forget(room: room)
        receiver.forget(room)
    }
    func close() {
        history?.close()
        archiver?.close()
        node.close()
    }

    var owedHistory: (any OwedHistory)? { history }

    /// The end of this node's draw is about to be written: its history line is owed first, on
    /// the same thread (`HistoryOutbox.oweAhead`), under the token `recorded` will give it.
    func recording(_ write: DrawWrite, room: String) {
        guard case .finish = write else { return }
        history?.oweAhead(drawId: write.drawId, room: room, token: ownDraws.token(ofDraw: write.drawId) ?? 0)
    }

    /// A step of a draw is on this node's disk: one that changes its history line (rounds only
    /// move `roundsShown`, which the end carries) is owed to the shared history, through the
    /// durable outbox. Token 0 until leases carry fencing tokens (issue 27's fencing).
    func recorded(_ write: DrawWrite, room: String) {
        switch write {
        // The token of the lease the draw ran under: its own end claimed it (`FencedDrawLog`), so
        // its line is accepted (the lease itself may be given back by now); 0 for a draw that
        // never held one here.
        // A beacon draw's round R once fetched, too: a node that takes the draw over makes its
        // record from this line, and without R's randomness it could not recompute the picks
        // its viewers were shown (FAIRNESS.md §9: they are keyed by R, never the seed's alone).
        case .started, .startedAt, .beacon:
            history?.owe(drawId: write.drawId, room: room, token: ownDraws.token(ofDraw: write.drawId) ?? 0, final: false)
        case .finish, .failed:
            history?.owe(drawId: write.drawId, room: room, token: ownDraws.ended(drawId: write.drawId) ?? 0, final: true)
        case .round: break  // the end carries the picks
        }
    }

    /// Reads the room's record from the shared store and takes its current key hash; a room
    /// deleted elsewhere is dropped here too. The lobby is not in the store: nothing to read.
    /// `done` gets `nil` to go on.
    func refresh(_ room: Room, forViewer: Bool, then done: @escaping (ClientErrorCode?) -> Void) {
        guard room.name != RoomName.lobby, storage.rooms != nil else { return done(nil) }
        let name = room.name
        room.awaitShared(true) // keeps the room in memory meanwhile
        guard forViewer else { return read(room, forViewer: false, then: done) }
        prepareViewer(of: name) { [unowned self] in read(room, forViewer: true, then: done) }
    }

    /// `refresh`'s read, on the rooms' thread.
    private func read(_ room: Room, forViewer: Bool, then done: @escaping (ClientErrorCode?) -> Void) {
        let name = room.name, read = viewReader(for: name, forViewer: forViewer)
        // `room` held strongly: a room deleted elsewhere leaves the registry in here.
        let submitted = storage.roomJob({ store throws(StorageError) -> (RoomRecord, StoredRoomView?)? in
            guard let record = try store.room(named: name) else { return nil }
            return (record, read())
        }) { [unowned self] result in
            room.awaitShared(false)
            switch result {
            case .success(let (record, view)?):
                // Changed through another node meanwhile? Not under a change of this node's.
                room.adopt(record)
                if let view { receiver.adoptView(view, in: room) }
                done(nil)
            case .success(nil) where node.reconnectedNotCaughtUp:
                // Redis came back (maybe empty) and this node has not written its rooms back yet
                // (`rebuildAfterReconnect`, next tick): not gone, just not there yet.
                done(.clusterUnavailable)
            case .success(nil):
                if !room.deleting, !room.hasWork, registry[name] === room { directory.finishDeletion(of: room) }
                return done(.unknownRoom)
            case .failure(let error):
                logger.warning("could not read a room from the cluster store", metadata: ["room": "\(name)", "error": "\(error)"])
                done(.clusterUnavailable)
            }
            directory.roomActivity(room)
        }
        if !submitted {
            room.awaitShared(false)
            done(.clusterUnavailable)
        }
    }

    /// How long a joiner's view read waits for the room's subscription to be confirmed.
    static let subscriptionWaitNanos = Nanoseconds.milliseconds(500)

    /// Before a viewer's lookup reads the room's view: the room's channel is subscribed first, and
    /// the read waits (briefly) for Redis to confirm it. Every event published after the read
    /// then arrives here too, and the view holds every one before it (it is written before each
    /// publish), so the joiner's snapshot and the events that follow it leave no round out. The
    /// wait is a callback (the channel says when Redis confirmed), not a poll: no thread waits.
    func prepareViewer(of room: String, then go: @escaping () -> Void) {
        guard node.services.views != nil else { return go() }
        if !node.subscribed.contains(room) { node.watch(room: room, viewers: 1) }
        subscriptions.wait(for: room, isSubscribed: node.channel.isSubscribed(room: room), then: go)
    }

    /// Reads the room's stored view, for the rooms' thread (`nil` when there is none to read).
    func viewReader(for room: String, forViewer: Bool) -> @Sendable () -> StoredRoomView? {
        let cluster = node
        guard let views = cluster.services.views else { return { nil } }
        guard forViewer else { return { try? views.view(room: room) } }
        let lists = entrantLists, records = cluster.services.records
        return {
            guard let view = try? views.view(room: room) else { return nil }
            // This node missed the `started` that brought the lists along: a v1 joiner's snapshot
            // and the draw's `finished` need them, so they are read now, off the service thread.
            for id in [view.head == nil ? nil : view.drawId, view.lastResult.flatMap(RemoteRoomView.drawId(ofResult:))] {
                guard let id, lists.list(drawId: id) == nil,
                      let shared = try? records?.entrants(drawId: id) else { continue }
                lists.keep(EntrantList(hash: shared.hash, json: shared.json), drawId: id)
            }
            return view
        }
    }

    /// After a viewer's lookup: a room this node subscribed to early but that has no viewer here
    /// (the join failed, the client left) is unsubscribed again.
    func lookupSettled(_ name: String) {
        node.watch(room: name, viewers: registry[name]?.viewers ?? 0)
    }

    /// Tells the other nodes with viewers in the room that it was deleted here, so they close
    /// theirs as this node did.
    func deleted(_ room: Room) {
        let now = clock.epochMillis()
        node.publish(ClusterEnvelope(node: node.nodeId, kind: .deleted, plannedAt: now, sentAt: now,
                                        wire: WireMessages.error(.roomDeleted)), room: room.name)
    }

    /// Tells the other nodes with viewers in the room that its list or settings changed here
    /// (`wire`: the `room` message this node's viewers got).
    func changed(_ room: Room, wire: [UInt8]) {
        let now = clock.epochMillis()
        node.publish(ClusterEnvelope(node: node.nodeId, kind: .room, plannedAt: now, sentAt: now, wire: wire),
                        room: room.name)
    }

    /// The snapshot's `draw` and `lastResult` when another node's draw is what this room shows
    /// (`nil`: the room's own view is the whole truth).
    func snapshotParts(of room: Room) -> Room.SnapshotParts? {
        guard room.remote.isActive || room.remote.lastResult != nil, !room.isBusy else { return nil }
        return Room.SnapshotParts(draw: room.remote.draw,
                                  lastResult: room.remote.lastResult ?? WireMessages.snapshotLastResult(room.lastResult))
    }

    /// Housekeeping, once a second: the link state for `/metrics`; the leases of the rooms whose
    /// running draw is another node's, so a dead node's draw is ended (`checkOrphans`).
    func tick() {
        let cluster = node, up = cluster.linkUp, now = clock.monotonicNanos()
        cluster.metrics.link(up: up)
        cluster.noteLink(up: up, nowNanos: now)
        rebuild.rebuildIfReconnected()
        // Rooms showing another node's draw, and those whose draw this node's restart left
        // escrowed (its reconciled line is held until the cluster ended the draw).
        let watched = cluster.subscribed.filter { registry[$0]?.remote.isActive == true }
            .union(cluster.orphanSuspects.filter { !cluster.leases.holds($0) })
        if cluster.takeoversAllowed(nowMs: clock.epochMillis(), nowNanos: now) {
            cluster.checkOrphans(Array(watched), clock: clock)
        }
        reportPresence(cluster)
        archiver?.tick()
    }

    /// This node's counts out, the other nodes' in: a room whose total changed gets a
    /// `presence` (coalesced as always; during a draw the rounds carry it).
    private func reportPresence(_ cluster: ClusterNode) {
        var counts: [String: Int] = [:]
        for name in cluster.subscribed { counts[name] = registry[name]?.viewers ?? 0 }
        for name in reportedPresence.keys where counts[name] == nil { counts[name] = 0 }
        reportedPresence = counts.filter { $0.value > 0 }
        cluster.reportPresence(counts) { [weak self] name, others in
            guard let self, let room = registry[name], room.otherNodesViewers != others else { return }
            room.otherNodesViewers = others
            broadcaster.viewersChanged(room)
        }
    }
}
