import DrawCore
import DrawPresentation
import Logging

/// This node's own draws as the cluster sees them (issue 27, docs/SCALING.md "Fencing"), and
/// cluster mode's `DrawStepLog` (issue 36, "durable before visible"): each event of a draw running
/// here goes out as one fenced entry under the lease token the draw runs under (`append`), and
/// this node's viewers see it only once Redis acknowledged that entry, at the moment every other
/// node's viewers get it. One entry per room is in flight at a time (`PendingSteps`), and the
/// draw's next step waits for it (`DrawRunner`); an entry that got no answer (Redis away, slow,
/// the link cut) is sent again until it gets one, and applied at most once (its sequence). The
/// draw's token is kept until its end is owed to the history (`token(ofDraw:)`). When the cluster
/// refuses an entry or the lease, the draw stops here at once, shows nothing more of its own, and
/// its viewers are handed the end the cluster recorded (`fencedOut`). The other direction —
/// other nodes' events shown here — is `ClusterEventReceiver`'s. Service thread only.
final class FencedDraws: DrawStepLog {
    /// One step on its way to the record.
    private struct Step {
        let envelope: ClusterEnvelope
        let token: UInt64
        let sequence: UInt64
        let escrow: FencedEntry.EscrowChange
        let entrants: (drawId: String, list: SharedEntrantList)?
        let show: () -> Void
    }

    private let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private let entrantLists: EntrantLists
    private unowned let loop: any RoomLoop
    private unowned(unsafe) var directory: RoomDirectory!
    /// Shows a stopped draw's viewers the cluster's end of it (`ClusterEventReceiver`, which
    /// knows what they were shown of other nodes).
    private var showClusterEnd: (_ room: Room, _ drawId: String, _ end: StoredDrawEnd?) -> Void = { _, _, _ in }
    /// The lease token each draw running here was started under, until its end is owed.
    private var drawTokens: [String: UInt64] = [:]
    private var ownEnded: (_ room: String, _ drawId: String) -> Void = { _, _ in }
    /// Rooms whose draw the cluster refused while this node stops it: its events are neither
    /// appended nor shown (`append`).
    private var silenced: Set<String> = []
    /// The steps not acknowledged yet, per room.
    private var pending = PendingSteps<Step>()
    /// The last sequence given to an entry (`FencedEntry.sequence`).
    private var lastSequence: UInt64 = 0
    /// Who waits for a room's steps to be durable (`whenAppended`): its runner, joiners.
    private var waiting: [String: [(Bool) -> Void]] = [:]
    /// Sends the steps that got no answer again; made on the first failure.
    private var retryTimer: (any ServiceTimer)?
    /// Rooms whose steps have been failing since the last acknowledgement (logged once each).
    private var failing: Set<String> = []
    /// How long after a failed append it is sent again. Redis refuses at once while its link is
    /// down (`RedisConnection`'s backoff), so a retry costs nothing then; a cut link costs the
    /// command timeout.
    static let retryNanos: UInt64 = 200_000_000

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, entrantLists: EntrantLists, loop: any RoomLoop) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.entrantLists = entrantLists
        self.loop = loop
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

    // MARK: DrawStepLog

    func isAppending(_ room: String) -> Bool { pending.isPending(room) }

    func whenAppended(_ room: String, then: @escaping (Bool) -> Void) {
        guard pending.isPending(room) else { return then(true) }
        waiting[room, default: []].append(then)
    }

    /// Appends an event of a draw running here to the room's shared record, fenced by its lease's
    /// token, with its wire bytes, the snapshot part it changes and when it was due; `show` runs
    /// once Redis acknowledged it. Not at all for the events of a draw the cluster refused, which
    /// this node is stopping (`fencedOut`), nor of one without a lease here.
    func append(_ event: DrawEvent, wire: [UInt8], from room: Room, then show: @escaping () -> Void) {
        let cluster = node
        // Without its lease (refused, or never granted) a draw's event is shown to nobody: every
        // one of them goes out fenced, or not at all.
        guard !silenced.contains(room.name), let token = cluster.leases.token(of: room.name) else { return }
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
        lastSequence += 1
        let step = Step(envelope: envelope, token: token, sequence: lastSequence,
                        escrow: escrowChange(for: event, node: cluster.nodeId), entrants: shared, show: show)
        if let now = pending.add(step, sequence: step.sequence, room: room.name) { send(now, room: room.name) }
    }

    private func send(_ step: Step, room: String) {
        node.append(step.envelope, room: room, token: step.token, sequence: step.sequence, escrow: step.escrow,
                    entrants: step.entrants) { [unowned self] outcome in answered(step.sequence, room: room, outcome) }
    }

    /// Redis answered the step `sequence` of `room` (or could not be asked).
    private func answered(_ sequence: UInt64, room: String, _ outcome: ClusterNode.AppendOutcome) {
        guard pending.isInFlight(sequence, room: room) else { return }  // dropped since (refused)
        switch outcome {
        case .accepted:
            node.metrics.publishedEvent()
            if failing.remove(room) != nil {
                logger.notice("the cluster took this node's held draw steps again", metadata: ["room": "\(room)"])
            }
            guard let (done, next) = pending.acknowledged(sequence, room: room) else { return }
            done.show()
            if let next { return send(next, room: room) }
            answerWaiting(room, true)
            // The draw's end is durable: its lease may go (`ClusterStartGate.activity`).
            if let room = directory[room] { directory.roomActivity(room) }
        case .refused(let end):
            let drawId = pending.acknowledged(sequence, room: room)?.done.envelope.drawId
            fencedOut(room: room, drawId: drawId, end: end)
        case .failed(let reason):
            guard pending.failed(sequence, room: room) else { return }
            node.metrics.publishFailed()
            if failing.insert(room).inserted {
                logger.warning("could not append a draw step to the cluster; the draw holds and retries",
                               metadata: ["room": "\(room)", "error": "\(reason)"])
            }
            retryLater()
        }
    }

    private func retryLater() {
        if retryTimer == nil {
            retryTimer = loop.makeTimer { [unowned self] in
                for (room, step) in pending.retry() { send(step, room: room) }
            }
        }
        retryTimer?.schedule(afterNanos: Self.retryNanos)
    }

    private func answerWaiting(_ room: String, _ durable: Bool) {
        guard let calls = waiting.removeValue(forKey: room) else { return }
        for call in calls { call(durable) }
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
    /// new draw), and owes its end to the history; `then` gets the end recorded (`nil`: the draw
    /// had ended meanwhile), on this thread.
    func endLeftover(_ draw: EscrowedDraw, in room: String, token: UInt64, then: @escaping (StoredDrawEnd?) -> Void) {
        let cluster = node, clock = self.clock, log = cluster.services.log, publisher = cluster.publisher
        let nodeId = cluster.nodeId
        let back = cluster.executor.continuation { (ended: (endedAt: Double, end: StoredDrawEnd)?) in
            if let ended { cluster.tookOver(room, draw, token, ended.endedAt) }
            then(ended?.end)
        }
        let queued = cluster.worker.submit {
            back(ClusterNode.endLeftover(draw, room: room, node: nodeId, token: token, clock: clock, log: log,
                                         publisher: publisher))
        }
        if !queued { then(nil) }
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
        // Nothing more of this draw goes out; what waited for its steps hears no once it stopped.
        pending.drop(name)
        failing.remove(name)
        defer { answerWaiting(name, false) }
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
