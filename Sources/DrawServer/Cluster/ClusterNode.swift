import DrawCore
import DrawPresentation
import DrawTransport
import Logging

/// This node's part in a cluster: the room event channel (subscribed to the rooms with viewers
/// here), the leases it holds for the draws it runs, and the worker thread that makes the
/// blocking calls. Service thread only; results come back as service-thread jobs (`ServiceExecutor`).
final class ClusterNode {
    let services: ClusterServices
    let metrics = ClusterMetrics()
    let channel: any ClusterEventChannel
    /// Where envelopes go out, sealed when the cluster has a secret.
    let publisher: EnvelopePublisher
    let worker = ClusterWorker()
    let executor: ServiceExecutor
    let logger: Logger
    /// Rooms whose channel this node listens to: those with viewers here.
    private(set) var subscribed: Set<String> = []
    /// Leases this node holds: room → owner id (`<node>/<n>`).
    private(set) var leases: [String: String] = [:]
    private var nextLease: UInt64 = 0
    /// `services.linkUps()` as the last housekeeping tick saw it (`rebuildAfterReconnect`).
    var seenLinkUps = 0
    /// The end of a draw of this node (`finished`, `failed`, `aborted`) that could not be
    /// published (Redis away), by room: published again once the link is back, so the other
    /// nodes' viewers get the outcome (and the escrow is cleared) after all.
    var unpublishedEnds: [String: (envelope: ClusterEnvelope, change: EscrowChange)] = [:]
    /// No takeover before this (epoch ms): after a reconnect, a node that ran a draw through the
    /// outage must get its chance to publish the end first (`pauseTakeovers`).
    var takeoversPausedUntilMs: Double = 0
    /// Renews `leases` every `leaseRenewMs`; made with the first lease.
    var renewTimer: (any ServiceTimer)?

    /// A message on a room's channel (another node's event), on the service thread.
    var eventArrived: (_ room: String, _ payload: [UInt8]) -> Void {
        get { events.arrived }
        set { events.arrived = newValue }
    }
    /// A message on a room's channel that did not carry the cluster's MAC, on the service thread.
    var eventDropped: (_ room: String, _ why: DroppedEnvelope) -> Void {
        get { events.dropped }
        set { events.dropped = newValue }
    }
    /// Where the channel's messages go: made before the channel, which hands them over.
    private let events = EventSink()
    /// A room's subscription was confirmed by Redis, on the service thread.
    var subscriptionConfirmed: (_ room: String) -> Void {
        get { events.confirmed }
        set { events.confirmed = newValue }
    }
    /// A room's view read back after a takeover found nothing to end, on the service thread.
    var viewArrived: (_ room: String, _ view: StoredRoomView) -> Void = { _, _ in }
    /// Where the history lines this node owes the cluster go (a takeover's among them); `nil`
    /// without a shared history.
    var history: HistoryOutbox?

    init(services: ClusterServices, executor: ServiceExecutor, logger: Logger) {
        self.services = services
        self.executor = executor
        self.logger = logger
        // The channel's thread checks each message's MAC (off the service thread) and hands it
        // over to the service thread (rule 2).
        let sink = LoopBound(events, thread: executor.thread), seal = services.seal
        channel = services.makeEvents { room, payload in
            guard let seal else { return executor.execute { sink.value.arrived(room, payload) } }
            guard let message = seal.open(payload, room: room) else {
                return executor.execute { sink.value.dropped(room, .unauthenticated) }
            }
            executor.execute { sink.value.arrived(room, message) }
        }
        publisher = EnvelopePublisher(channel: channel, seal: seal)
        channel.observeSubscriptions { room in executor.execute { sink.value.confirmed(room) } }
        channel.start()
    }

    var nodeId: String { services.nodeId }

    /// A way back to this node for a worker job, from any thread: `action` runs with the node on
    /// the service thread (`ServiceExecutor`).
    var back: @Sendable (@escaping @Sendable (ClusterNode) -> Void) -> Void {
        let node = LoopBound(self, thread: executor.thread), executor = self.executor
        return { action in executor.execute { action(node.value) } }
    }
    var linkUp: Bool { services.linkUp() }

    /// Ends the channel and the worker (after the jobs queued, lease releases included).
    func close() {
        renewTimer?.cancel()
        channel.stop()
        worker.finish()
    }

    // MARK: events

    /// What a published event does to the room's seed escrow.
    enum EscrowChange: Sendable {
        case keep
        case deposit(EscrowedDraw)
        case clear
    }

    /// Publishes one event of a draw running here to the other nodes (in order, off this thread),
    /// after folding it into the room's stored view and escrow.
    func publish(_ envelope: ClusterEnvelope, room: String, escrow change: EscrowChange = .keep,
                 entrants: (drawId: String, list: SharedEntrantList)? = nil) {
        let publisher = self.publisher, back = self.back, views = services.views
        let escrow = services.escrow, records = services.records
        let queued = worker.submit {
            do throws(CoordinationError) {
                // The list before the event: a node that hears `started` can serve it.
                if let entrants { try records?.keepEntrants(drawId: entrants.drawId, entrants.list) }
                // The view first: a node that reads it and then hears the event folds it once.
                // A `room` change is no draw event: the view (the running draw, the last result) stays.
                if envelope.kind != .room {
                    try views?.record(room: room, kind: envelope.kind.rawValue, drawId: envelope.drawId,
                                      index: envelope.index, part: envelope.view)
                }
                switch change {
                case .keep: break
                case .deposit(let draw): try escrow?.deposit(room: room, draw: draw)
                case .clear: try escrow?.clear(room: room)
                }
                try publisher.publish(envelope, toRoom: room)
                back { $0.published(room) }
            } catch {
                back { $0.publishFailed(room, error.description, envelope, change) }
            }
        }
        if !queued { publishFailed(room, "the cluster worker's queue is full", envelope, change) }
    }

    /// A later event of the room got through: an end still owed is older, and superseded.
    private func published(_ room: String) {
        metrics.publishedEvent()
        unpublishedEnds[room] = nil
    }

    private func publishFailed(_ room: String, _ reason: String, _ envelope: ClusterEnvelope, _ change: EscrowChange) {
        switch envelope.kind {
        case .finished, .failed, .aborted: unpublishedEnds[room] = (envelope, change)
        case .loading, .started, .round, .deleted, .room: break
        }
        metrics.publishFailed()
        logger.warning("could not publish a draw event to the cluster", metadata: ["room": "\(room)", "error": "\(reason)"])
    }

    /// Listens to `room` while it has viewers here, and only then.
    func watch(room: String, viewers: Int) {
        if viewers > 0 {
            if subscribed.insert(room).inserted { channel.subscribe(room: room) }
        } else {
            forget(room: room)
        }
    }

    func forget(room: String) {
        if subscribed.remove(room) != nil { channel.unsubscribe(room: room) }
    }

    /// Reads the room's stored view on the worker; `then` runs here (not at all without a view
    /// store or when the read fails: the room keeps what it has).
    func readView(room: String, then done: @escaping (StoredRoomView) -> Void) {
        guard let views = services.views else { return }
        let back = executor.continuation(done)
        worker.submit {
            guard let view = try? views.view(room: room) else { return }
            back(view)
        }
    }

    // MARK: leases

    /// What `acquireLease` found.
    enum LeaseAnswer: Sendable {
        case acquired
        case heldElsewhere
        case unavailable(String)
    }

    /// Takes the room's lease on the worker; `then` runs here with the answer. Acquired, the lease
    /// is this node's until `releaseLease` and is renewed meanwhile.
    func acquireLease(room: String, then answer: @escaping (LeaseAnswer) -> Void) {
        nextLease += 1
        let owner = "\(nodeId)/\(nextLease)", lease = services.lease, ttl = services.leaseTTLMs
        let back = executor.continuation { [unowned self] (result: LeaseAnswer) in
            if case .acquired = result { held(room: room, owner: owner) }
            answer(result)
        }
        let queued = worker.submit {
            let result: LeaseAnswer
            do throws(CoordinationError) {
                result = try lease.acquire(room: room, owner: owner, ttlMs: ttl) ? .acquired : .heldElsewhere
            } catch {
                result = .unavailable(error.description)
            }
            back(result)
        }
        if !queued { answer(.unavailable("the cluster worker's queue is full")) }
    }

    private func held(room: String, owner: String) {
        leases[room] = owner
        // The first lease arms the timer; `renewLeases` re-arms it while any is held (arming it
        // again here would postpone renewals for as long as draws keep starting).
        guard leases.count == 1 else { return }
        renewTimer?.schedule(afterNanos: UInt64(services.leaseRenewMs) * 1_000_000)
    }

    /// Gives the room's lease back, if this node holds it.
    func releaseLease(room: String) {
        guard let owner = leases.removeValue(forKey: room) else { return }
        let lease = services.lease
        worker.submit { _ = try? lease.release(room: room, owner: owner) }
    }

    func holdsLease(room: String) -> Bool { leases[room] != nil }

    /// The renew timer fired: extend every lease held, then wait for the next turn.
    func renewLeases() {
        guard !leases.isEmpty else { return }
        let lease = services.lease, ttl = services.leaseTTLMs, back = self.back
        for (room, owner) in leases {
            worker.submit {
                let kept: Bool
                do throws(CoordinationError) { kept = try lease.renew(room: room, owner: owner, ttlMs: ttl) } catch {
                    // Redis away: nobody else can take the lease either; try again next turn.
                    return
                }
                // Redis restarted empty: take the lease again (`SET NX`), or another node has it.
                if !kept, (try? lease.acquire(room: room, owner: owner, ttlMs: ttl)) != true {
                    back { $0.logger.error("lost a draw's lease to another node", metadata: ["room": "\(room)"]) }
                }
            }
        }
        renewTimer?.schedule(afterNanos: UInt64(services.leaseRenewMs) * 1_000_000)
    }
}

/// The service-thread end of the room channel (`ClusterNode.eventArrived`).
private final class EventSink {
    var arrived: (_ room: String, _ payload: [UInt8]) -> Void = { _, _ in }
    var confirmed: (_ room: String) -> Void = { _ in }
    var dropped: (_ room: String, _ why: DroppedEnvelope) -> Void = { _, _ in }
}
