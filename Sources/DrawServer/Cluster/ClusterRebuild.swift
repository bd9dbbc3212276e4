import DrawCore
import DrawPresentation
import Logging

/// Cluster mode: Redis came back after an outage, perhaps restarted empty (no persistence, or a
/// failover to a replica that had not caught up). What each node holds in memory is written
/// back where it is cheap (docs/SCALING.md, "Redis restarts empty"): the rooms it has loaded go
/// back into the registry (create if absent, so a Redis that kept them is left as it was). The
/// subscriptions are sent again by the subscriber itself, presence is reported every second, a
/// running draw's lease is taken again at its next renewal, and its view and escrow at its next
/// event.
///
/// And the viewers here of a draw that runs on another node missed its events while the link
/// was down: each such room's view is read again, and if it says more than this node knew (more
/// rounds, or the draw's end), its viewers get a fresh `snapshot` (docs/PROTOCOL.md).
///
/// Nothing of its own to keep (the link's ups it last saw are the node's, which its catch-up
/// reads too): an owner for one moment, checked on `ClusterRooms`' tick. Service thread only;
/// the writes run on the rooms' thread and the node's worker.
final class ClusterRebuild {
    private let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private unowned let storage: ServerStorage
    /// The history lines owed, sent again (Redis may have lost what it acknowledged).
    private let history: HistoryOutbox?
    /// Catches up the viewers of other nodes' draws (`ClusterEventReceiver.resync`).
    private unowned let receiver: ClusterEventReceiver
    /// The rooms in memory, set once it exists (`attach`).
    private unowned(unsafe) var directory: RoomDirectory!

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, storage: ServerStorage, history: HistoryOutbox?,
         receiver: ClusterEventReceiver) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.storage = storage
        self.history = history
        self.receiver = receiver
    }

    func attach(directory: RoomDirectory) { self.directory = directory }

    /// Housekeeping (once a second): when the link has come up again since the last tick, the
    /// rooms in memory (but the lobby, which is each node's own) are written back.
    func rebuildIfReconnected() {
        let cluster = node
        let ups = cluster.services.linkUps()
        guard ups != cluster.seenLinkUps else { return }
        // Up more than once: it reconnected since the last tick (the first up is the start).
        let cameBack = ups > 1
        cluster.seenLinkUps = ups
        guard cameBack else { return }
        cluster.catchUp(nowMs: clock.epochMillis())
        resyncWatchedRooms(cluster)
        restoreOwnViews(cluster)
        history?.restore()
        let now = clock.epochMillis()
        let records = directory.registry.all.filter { $0.name != RoomName.lobby && !$0.deleting }
            .map { RoomRecord(name: $0.name, keyHash: $0.keyHash, createdAt: now) }
        guard !records.isEmpty else { return }
        let logger = self.logger
        _ = storage.roomJob({ store throws(StorageError) -> Int in
            var restored = 0
            for record in records {
                do throws(StorageError) {
                    try store.createRoom(record)
                    restored += 1
                } catch {
                    // Still there (Redis kept it, or another node wrote it back first): fine.
                    guard case .duplicateRoom = error else { throw error }
                }
            }
            return restored
        }) { result in
            switch result {
            case .success(0): break
            case .success(let restored):
                logger.notice("wrote rooms back to the cluster's registry after Redis came back",
                              metadata: ["rooms": "\(restored)"])
            case .failure(let error):
                logger.warning("could not write rooms back after Redis came back", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Writes back the view and seed escrow of every draw running here, fenced by its lease (a
    /// Redis that restarted empty lost them: a joiner on another node would read the room idle,
    /// and no node could end the draw if this one died). Nothing is published: the other nodes'
    /// viewers have the draw; this is for those who read it. A Redis that kept them gets the
    /// same values again (the rounds' fold only appends the next one).
    private func restoreOwnViews(_ cluster: ClusterNode) {
        for room in directory.registry.all {
            guard let token = cluster.leases.token(of: room.name),
                  case .running(let plan, let startedAt, let shown)? = room.runner?.session.visible else { continue }
            let escrow = EscrowedDraw(drawId: plan.drawId, seedHex: plan.seed.hex, roundsShown: shown.count,
                                      node: cluster.nodeId)
            var entries = [FencedEntry(room: room.name, token: token, kind: ClusterEnvelope.Kind.started.rawValue,
                                       drawId: plan.drawId, index: nil,
                                       viewPart: WireMessages.snapshotDrawHead(plan, startedAt: startedAt),
                                       escrow: .deposit(escrow), endWire: nil, payload: [])]
            for (index, sentAt) in shown.enumerated() {
                entries.append(FencedEntry(room: room.name, token: token, kind: ClusterEnvelope.Kind.round.rawValue,
                                           drawId: plan.drawId, index: index,
                                           viewPart: WireMessages.snapshotRound(plan, index: index, sentAt: sentAt),
                                           escrow: .keep, endWire: nil, payload: []))
            }
            if let progress = room.runner?.session.revealProgress {
                // A per-winner entry (no index): the winners revealed so far, for joiners elsewhere.
                entries.append(FencedEntry(room: room.name, token: token, kind: ClusterEnvelope.Kind.round.rawValue,
                                           drawId: plan.drawId, index: nil,
                                           viewPart: WireMessages.snapshotProgressObject(progress, plan: plan),
                                           escrow: .keep, endWire: nil, payload: []))
            }
            let log = cluster.services.log, all = entries
            // On the worker, in order with the draw's own entries.
            cluster.worker.submit { for entry in all { _ = try? log.append(entry) } }
        }
    }

    /// Reads the view of every room this node shows another node's draw in, or has viewers in,
    /// and catches its viewers up (`ClusterEventReceiver.resync`).
    private func resyncWatchedRooms(_ cluster: ClusterNode) {
        guard let views = cluster.services.views else { return }
        for name in cluster.subscribed {
            guard let room = directory[name], room.viewers > 0, !room.isBusy else { continue }
            _ = storage.roomJob({ _ throws(StorageError) in try? views.view(room: name) }) { [weak self] result in
                guard let self, case .success(let view?) = result, let room = directory[name] else { return }
                receiver.resync(room, with: view)
            }
        }
    }
}
