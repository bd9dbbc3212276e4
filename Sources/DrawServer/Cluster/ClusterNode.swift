import DrawCore
import DrawPresentation
import DrawTransport
import Logging

/// This node's part in a cluster: the room event channel (subscribed to the rooms with viewers
/// here), the leases it holds for the draws it runs (`ClusterLeases`), and the worker thread that
/// makes the blocking calls. Service thread only; results come back as service-thread jobs (`ServiceExecutor`).
final class ClusterNode {
    let services: ClusterServices
    let metrics = ClusterMetrics()
    /// Whether Redis refuses this node's writes for want of memory (issue 44).
    let storeFull: ClusterStoreFull
    let channel: any ClusterEventChannel
    /// Where envelopes go out, sealed when the cluster has a secret.
    let publisher: EnvelopePublisher
    let worker = ClusterWorker()
    let executor: ServiceExecutor
    let logger: Logger
    /// Rooms whose channel this node listens to: those with viewers here.
    private(set) var subscribed: Set<String> = []
    /// The draw leases this node holds, with their fencing tokens.
    let leases: ClusterLeases
    /// `services.linkUps()` as the last housekeeping tick saw it (`rebuildAfterReconnect`).
    var seenLinkUps = 0
    /// No takeover and no new draw before this (epoch ms): after a reconnect, a node that ran a
    /// draw through the outage must get its chance to take its lease back and publish the end
    /// first (`catchUp`).
    var catchingUpUntilMs: Double = 0
    /// An entry of this node's draw in `room` was refused: a newer lease holds the room (the
    /// cluster ended the draw, or started another). `end`: the last end the cluster recorded
    /// there. Service thread.
    var fencedOut: (_ room: String, _ drawId: String?, _ end: StoredDrawEnd?) -> Void = { _, _, _ in }
    /// When the link to Redis last came up (monotonic ns), `nil` while it is down: takeovers wait
    /// until it has been up a lease TTL (`takeoversAllowed`).
    var linkUpSince: UInt64?
    /// Rooms whose lease was seen free, and since when (monotonic ns): a takeover waits until it
    /// has been free a full TTL (`ClusterNode+Takeover`).
    var leaseFreeSince: [String: UInt64] = [:]
    /// Rooms whose escrow still holds a draw this node reconciled after a restart (its history
    /// line was held, `HistoryOutbox.heldByEscrow`): their leases are watched like those of rooms
    /// with viewers here, so the draw is taken over and its end published even when no node
    /// has viewers there (`ClusterNode+Takeover`).
    var orphanSuspects: Set<String> = []

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
    /// This node ended `draw`, which a node that is gone left running in `room`, under lease
    /// `token`, at `endedAt` (epoch ms): its end is owed to the shared history. Service thread.
    var tookOver: (_ room: String, _ draw: EscrowedDraw, _ token: UInt64, _ endedAt: Double) -> Void = { _, _, _, _ in }
    /// The view reads in flight per room, and the callers that asked after it started.
    private struct ViewReads {
        var running: [(StoredRoomView?) -> Void]
        var waiting: [(StoredRoomView?) -> Void] = []
    }
    private var viewReads: [String: ViewReads] = [:]
    /// A room's view read back after a takeover found nothing to end, on the service thread.
    var viewArrived: (_ room: String, _ view: StoredRoomView) -> Void = { _, _ in }

    init(services: ClusterServices, executor: ServiceExecutor, clock: any DrawClock, logger: Logger,
         makeTimer: @escaping (@escaping () -> Void) -> any ServiceTimer) {
        self.services = services
        self.executor = executor
        self.logger = logger
        storeFull = ClusterStoreFull(metrics: metrics, logger: logger)
        leases = ClusterLeases(services: services, worker: worker, executor: executor, logger: logger,
                               makeTimer: makeTimer)
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
        leases.close()
        channel.stop()
        worker.finish()
    }

    // MARK: events

    /// Publishes a `room` or `deleted` notice, which is no draw's, plainly (in order, off this
    /// thread). A draw's events go out as fenced entries instead (`append`).
    func publish(_ envelope: ClusterEnvelope, room: String) {
        let publisher = self.publisher, back = self.back
        let queued = worker.submit {
            do throws(CoordinationError) {
                try publisher.publish(envelope, toRoom: room)
                back { $0.metrics.publishedEvent() }
            } catch {
                back { $0.publishFailed(room, error.description) }
            }
        }
        if !queued { publishFailed(room, "the cluster worker's queue is full") }
    }

    /// What became of one fenced entry of this node's draw (`append`).
    enum AppendOutcome: Sendable {
        /// Durable in the room's shared record (and published to the other nodes).
        case accepted
        /// A newer lease holds the room, or the draw's end was claimed by another: nothing was
        /// changed. `end`: the last end the cluster recorded there.
        case refused(end: StoredDrawEnd?)
        /// No answer (Redis away or slow, the worker's queue full): try again.
        case failed(String)
    }

    /// Appends one event of a draw running here as one fenced entry under its lease's `token`
    /// (view, escrow, end claim and publish in one step, `FencedDrawLog`), on the worker;
    /// `answer` runs on this thread. With `started`, the draw's list is kept first, so a node
    /// that hears `started` can serve it.
    func append(_ envelope: ClusterEnvelope, room: String, token: UInt64, sequence: UInt64,
                escrow change: FencedEntry.EscrowChange, entrants: (drawId: String, list: SharedEntrantList)?,
                answer: @escaping (AppendOutcome) -> Void) {
        let publisher = self.publisher, log = services.log, records = services.records
        // Whether Redis was full is noted on the way back (`storeFull`): `nil` when the answer
        // says nothing of it (no answer at all, a refused fence that wrote nothing).
        let back = executor.continuation { [unowned self] (outcome: AppendOutcome, full: Bool?) in
            if full == true, case .failed(let reason) = outcome { storeFull.refused("a draw step", reason: reason) }
            if full == false { storeFull.wrote() }
            answer(outcome)
        }
        let queued = worker.submit {
            do throws(CoordinationError) {
                if let entrants { try records?.keepEntrants(drawId: entrants.drawId, entrants.list) }
                let entry = publisher.entry(envelope, room: room, token: token, escrow: change, sequence: sequence)
                switch try log.append(entry) {
                case .accepted: back((.accepted, false))
                case .refused(_, let end), .alreadyEnded(let end): back((.refused(end: end), nil))
                }
            } catch {
                if case .full = error { return back((.failed(error.description), true)) }
                back((.failed(error.description), nil))
            }
        }
        if !queued { answer(.failed("the cluster worker's queue is full")) }
    }

    private func publishFailed(_ room: String, _ reason: String) {
        metrics.publishFailed()
        logger.warning("could not publish a notice to the cluster", metadata: ["room": "\(room)", "error": "\(reason)"])
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

    /// Reads the room's stored view on the worker; `then` runs here, once, always: with `nil`
    /// when there is no view store or the read failed. A caller that waits on the answer (events
    /// held back until a missed end is shown, a start) must hear of a failure, or it waits until
    /// something else comes along (the soak's missed ends come exactly when Redis is unsteady).
    ///
    /// One read per room at a time: a round that arrives while the room's view is being read
    /// (every round of a draw whose start this node missed asks for one) waits for the next read,
    /// started once the one in flight answered, rather than each queueing a Redis round trip on
    /// the worker ahead of the draws' own entries. Each caller still gets a view read after it asked.
    func readView(room: String, then done: @escaping (StoredRoomView?) -> Void) {
        guard services.views != nil else { return done(nil) }
        guard viewReads[room] == nil else {
            viewReads[room]?.waiting.append(done)
            return
        }
        viewReads[room] = ViewReads(running: [done])
        startViewRead(room: room)
    }

    private func startViewRead(room: String) {
        guard let views = services.views else { return }
        let back = executor.continuation { [unowned self] (view: StoredRoomView?) in
            guard let reads = viewReads.removeValue(forKey: room) else { return }
            for done in reads.running { done(view) }
            guard !reads.waiting.isEmpty else { return }
            viewReads[room] = ViewReads(running: reads.waiting)
            startViewRead(room: room)
        }
        if !worker.submit({ back(try? views.view(room: room)) }) {
            // The worker has stopped (shutdown): nobody will read it; every caller hears so.
            let reads = viewReads.removeValue(forKey: room)
            for done in (reads?.running ?? []) + (reads?.waiting ?? []) { done(nil) }
        }
    }
}

/// The service-thread end of the room channel (`ClusterNode.eventArrived`).
private final class EventSink {
    var arrived: (_ room: String, _ payload: [UInt8]) -> Void = { _, _ in }
    var confirmed: (_ room: String) -> Void = { _ in }
    var dropped: (_ room: String, _ why: DroppedEnvelope) -> Void = { _, _ in }
}
