import DrawCore
import DrawPresentation
import Logging

/// This node's own draws as the cluster sees them (issue 27, docs/SCALING.md "Fencing"): each
/// event goes out as one fenced entry under the lease token the draw runs under (`publish`),
/// that token is kept until the draw's end is owed to the history (`token(ofDraw:)`), and when
/// the cluster refuses an entry or the lease, the draw stops here at once, shows nothing more of
/// its own, and its viewers are handed the end the cluster recorded (`fencedOut`). The other
/// direction — other nodes' events shown here — is `ClusterEventReceiver`'s. Service thread only.
final class FencedDraws {
    private let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private let entrantLists: EntrantLists
    private unowned(unsafe) var directory: RoomDirectory!
    /// Shows a stopped draw's viewers the cluster's end of it (`ClusterEventReceiver`, which
    /// knows what they were shown of other nodes).
    private var showClusterEnd: (_ room: Room, _ drawId: String, _ end: StoredDrawEnd?) -> Void = { _, _, _ in }
    /// The lease token each draw running here was started under, until its end is owed.
    private var drawTokens: [String: UInt64] = [:]
    private var ownEnded: (_ room: String, _ drawId: String) -> Void = { _, _ in }
    /// Rooms whose draw the cluster refused while this node stops it: its events are neither
    /// published nor shown (`publish`).
    private var silenced: Set<String> = []

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, entrantLists: EntrantLists) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.entrantLists = entrantLists
    }

    /// Wires the registry in and starts taking the cluster's refusals. `ended` is told each draw
    /// of this node's that ended here (so a view read later, still without its last entries, is
    /// not shown as if it ran on).
    func attach(directory: RoomDirectory, ended: @escaping (_ room: String, _ drawId: String) -> Void,
                showClusterEnd: @escaping (_ room: Room, _ drawId: String, _ end: StoredDrawEnd?) -> Void) {
        self.directory = directory
        self.ownEnded = ended
        self.showClusterEnd = showClusterEnd
        node.fencedOut = { [unowned self] room, drawId, end in fencedOut(room: room, drawId: drawId, end: end) }
        node.leases.lost = { [unowned self] room in
            fencedOut(room: room, drawId: directory[room]?.runner?.session.visible.drawId, end: nil)
        }
    }

    /// The token draw `drawId` runs under, while it runs here.
    func token(ofDraw drawId: String) -> UInt64? { drawTokens[drawId] }

    /// Draw `drawId`'s end is on disk: its token, for its history line, is given up.
    func ended(drawId: String) -> UInt64? { drawTokens.removeValue(forKey: drawId) }

    /// Sends an event of a draw running here to the other nodes: its wire bytes, the snapshot
    /// part it changes, when it was due, and its lease's token (`ClusterEventBus.relay`).
    /// Returns whether this node's viewers are shown it: not the events of a draw the cluster
    /// refused, which this node is stopping (`fencedOut`).
    func publish(_ event: DrawEvent, wire: [UInt8], room: Room) -> Bool {
        let cluster = node
        // Without its lease (refused, or never granted) a draw's event is shown to nobody: every
        // one of them goes out fenced, or not at all.
        guard !silenced.contains(room.name), let token = cluster.leases.token(of: room.name) else { return false }
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
        // After a per-winner event the session already stands where it leads (the next winner,
        // or the wait for the host): what this node's own snapshot shows, so every node's says it.
        var envelope = ClusterEnvelope(event: event, wire: wire, node: cluster.nodeId, now: clock.epochMillis(),
                                       roundDueAt: due, entrants: shared?.list.json ?? [],
                                       progress: room.runner?.session.revealProgress)
        envelope.token = token
        switch event {
        case .started(let plan, _): drawTokens[plan.drawId] = token
        case .finished(let plan, _, _), .aborted(let plan, _, _): ownEnded(room.name, plan.drawId)
        case .loading, .round, .failed, .winner, .nextWinner: break
        }
        cluster.publish(envelope, room: room.name, escrow: escrowChange(for: event, node: cluster.nodeId), entrants: shared)
        return true
    }

    /// The seed escrow follows the draw: deposited once the plan is public, its count moved at
    /// each round, cleared at the end.
    private func escrowChange(for event: DrawEvent, node: String) -> FencedEntry.EscrowChange {
        switch event {
        case .loading: return .keep
        case .started(let plan, _):
            return .deposit(EscrowedDraw(drawId: plan.drawId, seedHex: plan.seed.hex, roundsShown: 0, node: node))
        case .round(let plan, let index, _):
            return .deposit(EscrowedDraw(drawId: plan.drawId, seedHex: plan.seed.hex, roundsShown: index + 1, node: node))
        case .finished, .failed, .aborted: return .clear
        case .winner, .nextWinner: return .keep
        }
    }

    /// Ends a leftover draw of a gone holder under `token` (on the worker, before anything of the
    /// new draw), and owes its end to the history.
    func endLeftover(_ draw: EscrowedDraw, in room: String, token: UInt64) {
        let cluster = node, clock = self.clock, log = cluster.services.log, publisher = cluster.publisher
        let back = cluster.back, nodeId = cluster.nodeId
        cluster.worker.submit {
            guard let endedAt = ClusterNode.endLeftover(draw, room: room, node: nodeId, token: token, clock: clock,
                                                        log: log, publisher: publisher) else { return }
            back { $0.tookOver(room, draw, token, endedAt) }
        }
    }

    /// The cluster refused an entry of this node's draw `drawId` in the room, or its lease: a
    /// newer lease holds the room (a takeover ended the draw, or another draw began). The draw
    /// stops here at once and its own end is shown to nobody (`silenced`); this node's viewers
    /// get the end the cluster recorded (`showClusterEnd`). Logged once.
    private func fencedOut(room name: String, drawId: String?, end: StoredDrawEnd?) {
        node.metrics.fencedOut()
        // Silenced before the lease is forgotten: a draw waiting for it is told no, and aborts.
        silenced.insert(name)
        defer { silenced.remove(name) }
        let room = directory[name]
        if let runner = room?.runner, runner.isBusy {
            // An older draw's owed end refused while a newer draw of this node runs: not this one.
            guard drawId == nil || runner.session.visible.drawId == drawId else { return }
            logger.error("the cluster refused this node's draw: a newer lease holds the room; the draw stops here",
                         metadata: ["room": "\(name)", "drawId": "\(drawId ?? "-")"])
            runner.abort(reason: ClusterNode.interruptedReason)
        }
        node.leases.forget(name)
        guard let room else { return }
        defer { directory.roomActivity(room) }
        if let drawId { showClusterEnd(room, drawId, end) }
    }
}
