import DrawCore
import Foundation
import DrawPresentation

/// Cluster mode (docs/SCALING.md): starts take the room's lease first, draw events of this node
/// go to the other nodes, theirs come in and are shown here. Service thread only; the blocking
/// calls run on the `ClusterNode`'s worker and come back through the inbox.
extension RoomService {
    /// A start in cluster mode: the room's record is read again first (its key may have been
    /// rotated, or the room deleted, through another node), then the key is checked, then the
    /// room's lease is taken on the worker; only then does the runner start. Another node's
    /// running draw holds the lease, so the answer is `draw_running` there too.
    func startClusterDraw(in room: Room, hostKey: String?, then answer: @escaping (ClientErrorCode?) -> Void) {
        guard let cluster else { return answer(.internalError) }
        guard cluster.linkUp else { return answer(.clusterUnavailable) }
        refreshRecord(of: room) { [unowned self, unowned room] refusal in
            if let refusal { return answer(refusal) }
            if let refusal = refuseStart(in: room, hostKey: hostKey) { return answer(refusal) }
            guard !room.leasePending, room.runner?.session.canStart ?? true else { return answer(.drawRunning) }
            if cluster.renewTimer == nil {
                cluster.renewTimer = loop.timer { [unowned cluster] in cluster.renewLeases() }
            }
            room.leasePending = true
            room.clusterWaits += 1
            cluster.acquireLease(room: room.name) { [unowned self, unowned room] result in
                room.leasePending = false
                room.clusterWaits -= 1
                defer { roomActivity(room) }
                switch result {
                case .acquired:
                    guard !phase.shuttingDown, !room.deleting, startRunner(of: room) else {
                        cluster.releaseLease(room: room.name)
                        return answer(phase.shuttingDown ? .shuttingDown : .drawRunning)
                    }
                    touch(room)
                    answer(nil)
                case .heldElsewhere:
                    answer(.drawRunning)
                case .unavailable(let reason):
                    logger.warning("could not take a room's draw lease", metadata: ["room": "\(room.name)", "error": "\(reason)"])
                    answer(.clusterUnavailable)
                }
            }
        }
    }

    /// Reads the room's record from the shared store and takes its current key hash; a room
    /// deleted elsewhere is dropped here too. The lobby is not in the store: nothing to read.
    /// `done` gets `nil` to go on.
    func refreshRecord(of room: Room, forViewer: Bool = false, then done: @escaping (ClientErrorCode?) -> Void) {
        guard room.name != RoomName.lobby, storage.rooms != nil else { return done(nil) }
        let name = room.name
        room.clusterWaits += 1 // keeps the room in memory meanwhile
        let read = viewReader(for: name, forViewer: forViewer)
        // `room` held strongly: a room deleted elsewhere leaves the registry in here.
        let submitted = storage.roomJob({ store throws(StorageError) -> (RoomRecord, StoredRoomView?)? in
            guard let record = try store.room(named: name) else { return nil }
            return (record, read())
        }) { [unowned self] result in
            room.clusterWaits -= 1
            switch result {
            case .success(let (record, view)?):
                room.keyHash = record.keyHash
                // Changed through another node meanwhile? Not under a draw: it keeps what it started with.
                if !room.changing {
                    room.settings = record.settings
                    room.entrants = record.entrants
                    room.sourceURLs = record.sourceURLs
                }
                if let view { adoptView(view, in: room) }
                done(nil)
            case .success(nil):
                if !room.deleting, !(room.runner?.hasWork ?? false), registry[name] === room { finishDeletion(of: room) }
                return done(.unknownRoom)
            case .failure(let error):
                logger.warning("could not read a room from the cluster store", metadata: ["room": "\(name)", "error": "\(error)"])
                done(.clusterUnavailable)
            }
            roomActivity(room)
        }
        if !submitted {
            room.clusterWaits -= 1
            done(.clusterUnavailable)
        }
    }

    /// Sends an event of a draw running here to the other nodes: its wire bytes, the snapshot
    /// part it changes, and when it was due.
    func publishToCluster(_ event: DrawEvent, wire: [UInt8], room: Room) {
        guard let cluster else { return }
        var due: Double?
        if case .round(let plan, let index, _) = event, plan.rounds.indices.contains(index),
           case .running(_, let startedAt, _)? = room.runner?.session.visible {
            due = startedAt + Double(plan.rounds[index].offsetMs)
        }
        var endsWithResult = false
        if case .finished = event { endsWithResult = true }
        room.remote.supersededLocally(resultToo: endsWithResult)
        // The list goes to Redis (the entrants endpoint of every node) and along with `started`
        // (the nodes with viewers, for their v1 clients); v2's `wire` no longer carries it.
        var shared: (drawId: String, list: SharedEntrantList)?
        if case .started(let plan, _) = event {
            let list = entrantLists.list(for: plan)
            shared = (drawId: plan.drawId, list: SharedEntrantList(hash: list.hash, json: list.json))
        }
        cluster.publish(ClusterEnvelope(event: event, wire: wire, node: cluster.nodeId, now: clock.epochMillis(),
                                        roundDueAt: due, entrants: shared?.list.json ?? []),
                        room: room.name, escrow: escrowChange(for: event, node: cluster.nodeId), entrants: shared)
    }

    /// The seed escrow follows the draw: deposited once the plan is public, its count moved at
    /// each round, cleared at the end.
    private func escrowChange(for event: DrawEvent, node: String) -> ClusterNode.EscrowChange {
        switch event {
        case .loading: return .keep
        case .started(let plan, _):
            return .deposit(EscrowedDraw(drawId: plan.drawId, seedHex: plan.seed.hex, roundsShown: 0, node: node))
        case .round(let plan, let index, _):
            return .deposit(EscrowedDraw(drawId: plan.drawId, seedHex: plan.seed.hex, roundsShown: index + 1, node: node))
        case .finished, .failed, .aborted: return .clear
        }
    }

    /// How long a joiner's view read waits for the room's subscription to be confirmed.
    static let subscriptionWaitMs = 500

    /// Reads the room's stored view, for the storage thread (`nil` when there is none to read).
    /// For a viewer about to join, the room's channel is subscribed first and the read waits
    /// (briefly) for Redis to confirm it: every event published after the read then arrives
    /// here too, and the view holds every one before it (it is written before each publish), so
    /// the joiner's snapshot and the events that follow it leave no round out.
    func viewReader(for room: String, forViewer: Bool) -> @Sendable () -> StoredRoomView? {
        guard let cluster, let views = cluster.services.views else { return { nil } }
        guard forViewer else { return { try? views.view(room: room) } }
        if !cluster.subscribed.contains(room) { cluster.watch(room: room, viewers: 1) }
        let channel = cluster.channel, waitMs = Self.subscriptionWaitMs
        let lists = entrantLists, records = cluster.services.records
        return {
            let deadline = ContinuousClock.now + .milliseconds(waitMs)
            // A bounded poll on the storage thread (which may wait): the confirmation comes from
            // the subscriber's thread within a round trip to Redis, usually well under 1 ms.
            while !channel.isSubscribed(room: room), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.000_5) }
            guard let view = try? views.view(room: room) else { return nil }
            // This node missed the `started` that brought the lists along: a v1 joiner's snapshot
            // and the draw's `finished` need them, so they are read now, where waiting is fine.
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
    func settleEarlySubscription(_ name: String) {
        guard let cluster else { return }
        cluster.watch(room: name, viewers: registry[name]?.viewers ?? 0)
    }

    /// Takes the cluster's stored view of the room as what its snapshot shows, unless a draw of
    /// this node's own is what it shows.
    func adoptView(_ view: StoredRoomView, in room: Room) {
        guard !(room.runner?.isBusy ?? false) else { return }
        room.remote = RemoteRoomView(stored: view)
    }

    /// Tells the other nodes with viewers in the room that it was deleted here, so they close
    /// theirs as this node did.
    func announceDeletion(of room: Room) {
        guard let cluster else { return }
        let now = clock.epochMillis()
        cluster.publish(ClusterEnvelope(node: cluster.nodeId, kind: .deleted, plannedAt: now, sentAt: now,
                                        wire: WireMessages.error(.roomDeleted)), room: room.name)
    }

    /// Tells the other nodes with viewers in the room that its list or settings changed here
    /// (`wire`: the `room` message this node's viewers got).
    func announceRoomChange(of room: Room, wire: [UInt8]) {
        guard let cluster else { return }
        let now = clock.epochMillis()
        cluster.publish(ClusterEnvelope(node: cluster.nodeId, kind: .room, plannedAt: now, sentAt: now, wire: wire),
                        room: room.name)
    }

    /// A message on a room's channel (through the inbox): another node's draw event. Shown to
    /// this node's viewers as it came, and folded into the room's snapshot.
    func clusterEvent(room name: String, _ payload: [UInt8]) {
        guard let cluster, let envelope = ClusterEnvelope.decode(payload), envelope.node != cluster.nodeId,
              let room = registry[name] else { return }
        if envelope.kind == .deleted {
            if !room.deleting, !(room.runner?.hasWork ?? false) { finishDeletion(of: room) }
            return
        }
        if envelope.kind == .room {
            // The list or settings changed through another node: read the room's record again
            // (so this node's snapshots agree), then show the change as it was sent.
            return refreshRecord(of: room) { [unowned self, unowned room] refusal in
                if refusal == nil { broadcast(envelope.wire, in: room) }
            }
        }
        guard !(room.runner?.isBusy ?? false) else { return }
        if let id = envelope.drawId, let hash = envelope.entrantsHash, !envelope.entrants.isEmpty {
            entrantLists.keep(EntrantList(hash: hash, json: envelope.entrants), drawId: id)
        }
        cluster.metrics.receivedEvent(latenessMs: envelope.kind == .round ? clock.epochMillis() - envelope.plannedAt : 0)
        room.remote.apply(envelope)
        if envelope.kind == .round, let index = envelope.index, room.remote.rounds.count <= index {
            // A round this node's view lacks one before (it joined the draw late, or the link
            // dropped a message): read the view again so later snapshots are whole.
            cluster.readView(room: name) { [weak self, weak room] view in
                if let self, let room { self.adoptView(view, in: room) }
            }
        }
        show(envelope.wire, loading: envelope.kind == .loading, in: room)
        roomActivity(room)
    }

    /// The snapshot's `draw` and `lastResult` when another node's draw is what this room shows
    /// (`nil`: the room's own view is the whole truth).
    func remoteSnapshotParts(of room: Room) -> Room.SnapshotParts? {
        guard room.remote.isActive || room.remote.lastResult != nil, !(room.runner?.isBusy ?? false) else { return nil }
        return Room.SnapshotParts(draw: room.remote.draw,
                                  lastResult: room.remote.lastResult ?? WireMessages.snapshotLastResult(room.lastResult))
    }

    /// After any activity: a lease whose draw is over (finished, failed, aborted, recorded) is
    /// given back.
    func releaseLeaseIfDone(_ room: Room) {
        guard let cluster, cluster.holdsLease(room: room.name), !room.leasePending,
              !(room.runner?.isBusy ?? false) else { return }
        cluster.releaseLease(room: room.name)
    }

    /// Puts a draw's history line and record where every node's history API finds them, once
    /// the step is on this node's disk (read and kept on the storage thread, which may wait for
    /// Redis). Kept when the draw is planned, started, ended or failed.
    func shareRecord(_ drawId: String, room: String) {
        guard let records = cluster?.services.records else { return }
        let logger = self.logger
        _ = storage.drawJob({ store throws(StorageError) in
            guard let record = try store.record(id: drawId) else { return }
            do throws(CoordinationError) {
                try records.keep(drawId: drawId, room: room, summary: RecordMessages.summary(DrawSummary(record: record)),
                                 body: RecordMessages.record(record))
            } catch {
                logger.warning("could not share a draw's record with the cluster", metadata: ["drawId": "\(drawId)", "error": "\(error)"])
            }
        }) { _ in }
    }

    /// A room's view read back after a takeover found nothing to end (through the inbox).
    func clusterView(room name: String, _ view: StoredRoomView) {
        // The draw is over (its lease was free, nothing escrowed): whatever the view says, even
        // nothing (Redis restarted empty), and the viewers here are told.
        if let room = registry[name] { resync(room, with: view, emptyToo: true) }
    }

    /// Housekeeping, once a second: the link state for `/metrics`; the leases of the rooms whose
    /// running draw is another node's, so a dead node's draw is ended (`checkOrphans`).
    func clusterTick() {
        guard let cluster else { return }
        cluster.metrics.link(up: cluster.linkUp)
        rebuildAfterReconnect(cluster)
        let watched = cluster.subscribed.filter { registry[$0]?.remote.isActive == true }
        if cluster.takeoversAllowed(nowMs: clock.epochMillis()) { cluster.checkOrphans(Array(watched), clock: clock) }
        reportPresence(cluster)
    }

    /// This node's counts out, the other nodes' in: a room whose total changed gets a
    /// `presence` (coalesced as always; during a draw the rounds carry it).
    private func reportPresence(_ cluster: ClusterNode) {
        var counts: [String: Int] = [:]
        for name in cluster.subscribed { counts[name] = registry[name]?.viewers ?? 0 }
        for name in reportedPresence.keys where counts[name] == nil { counts[name] = 0 }
        reportedPresence = counts.filter { $0.value > 0 }
        cluster.reportPresence(counts, nowMs: clock.epochMillis()) { [weak self] name, others in
            guard let self, let room = registry[name], room.otherNodesViewers != others else { return }
            room.otherNodesViewers = others
            viewersChanged(room)
        }
    }
}
