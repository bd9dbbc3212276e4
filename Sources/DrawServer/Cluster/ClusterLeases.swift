import DrawCore
import Logging

/// The draw leases this node holds (issue 27, docs/SCALING.md "Fencing"): each with its fencing
/// token and the proof that it is still held — the monotonic time the last successful grant or
/// renewal was sent. Redis expires a lease `leaseTTLMs` after the renewal that set it, and no
/// other node can be granted the room before that, so while less than the TTL minus a safety
/// margin has passed since that send, this node still holds it and may show its own viewers
/// the draw's next step at once (`mayShow`). Past that (a pause, a stalled worker, Redis away),
/// the draw waits (`awaitShow`) until a renewal says whether the lease is still this node's: kept
/// or taken back (nobody was granted the room meanwhile), the draw goes on; refused, the cluster
/// ended it (`lost`). Service thread only; the calls to Redis run on the cluster worker.
final class ClusterLeases {
    /// One lease held.
    struct Held {
        let owner: String
        let token: UInt64
        /// When the last grant or renewal that succeeded was sent (monotonic ns).
        var confirmedAt: UInt64
        /// Whether a renewal is on the worker for it now.
        var renewing = false
    }

    private let services: ClusterServices
    private let worker: ClusterWorker
    private let executor: ServiceExecutor
    private let clock: any DrawClock
    private let logger: Logger
    private(set) var held: [String: Held] = [:]
    private var nextLease: UInt64 = 0
    /// Draws waiting to know whether they may go on, by room (`awaitShow`).
    private var waiting: [String: [(Bool) -> Void]] = [:]
    /// Renews every lease every `leaseRenewMs`; made with the first lease (`makeTimer`).
    private var renewTimer: (any ServiceTimer)?
    private let makeTimer: (@escaping () -> Void) -> any ServiceTimer
    /// A lease was refused: another node holds the room now (service thread).
    var lost: (_ room: String) -> Void = { _ in }

    init(services: ClusterServices, worker: ClusterWorker, executor: ServiceExecutor, clock: any DrawClock,
         logger: Logger, makeTimer: @escaping (@escaping () -> Void) -> any ServiceTimer) {
        self.services = services
        self.worker = worker
        self.executor = executor
        self.clock = clock
        self.logger = logger
        self.makeTimer = makeTimer
    }

    /// How long after a renewal was sent the lease is surely still held: the TTL less a margin
    /// for the clocks' rates and the time between the check and the viewers' sockets.
    var proofNanos: UInt64 {
        let ttl = UInt64(services.leaseTTLMs), margin = max(ttl / 6, min(500, ttl / 2))
        return (ttl - margin) * 1_000_000
    }

    func token(of room: String) -> UInt64? { held[room]?.token }
    func holds(_ room: String) -> Bool { held[room] != nil }

    /// Whether this node may show the next step of its draw in `room` now: it holds the lease and
    /// can prove it (see the type). A room without a lease of this node's has nothing to prove.
    func mayShow(_ room: String) -> Bool {
        guard let lease = held[room] else { return true }
        let now = clock.monotonicNanos()
        return now < lease.confirmedAt || now - lease.confirmedAt < proofNanos
    }

    /// Calls `then` once the lease of `room` is proven again (true) or refused (false). Asks for
    /// a renewal now; while Redis does not answer, every renewal turn asks again.
    func awaitShow(_ room: String, then: @escaping (Bool) -> Void) {
        guard held[room] != nil else { return then(false) }
        if mayShow(room) { return then(true) }
        waiting[room, default: []].append(then)
        renew(room)
    }

    /// What `acquire` found.
    enum Answer: Sendable {
        /// Taken, with its token; `leftover`: a draw of an earlier holder still escrowed, which
        /// the caller must end before starting its own.
        case acquired(token: UInt64, leftover: EscrowedDraw?)
        case heldElsewhere
        case unavailable(String)
    }

    /// Takes the room's lease on the worker; `answer` runs here. Acquired, it is this node's until
    /// `release` and is renewed meanwhile.
    func acquire(_ room: String, answer: @escaping (Answer) -> Void) {
        nextLease += 1
        let owner = "\(services.nodeId)/\(nextLease)", lease = services.lease, ttl = services.leaseTTLMs
        let log = services.log, clock = self.clock
        let back = executor.continuation { [unowned self] (result: (Answer, UInt64)) in
            if case .acquired(let token, _) = result.0 { took(room, Held(owner: owner, token: token, confirmedAt: result.1)) }
            answer(result.0)
        }
        let queued = worker.submit {
            let sent = clock.monotonicNanos()
            let token: UInt64
            do throws(CoordinationError) {
                guard let granted = try lease.acquire(room: room, owner: owner, ttlMs: ttl) else { return back((.heldElsewhere, sent)) }
                token = granted
            } catch {
                return back((.unavailable(error.description), sent))
            }
            do throws(CoordinationError) {
                back((.acquired(token: token, leftover: try log.escrowed(room: room)), sent))
            } catch {
                // Whether a draw is left over is unknown: no start on a guess; the lease goes back.
                _ = try? lease.release(room: room, owner: owner)
                back((.unavailable(error.description), sent))
            }
        }
        if !queued { answer(.unavailable("the cluster worker's queue is full")) }
    }

    private func took(_ room: String, _ lease: Held) {
        held[room] = lease
        if renewTimer == nil { renewTimer = makeTimer { [unowned self] in renewAll() } }
        // The first lease arms the timer; `renewAll` re-arms it while any is held (arming it
        // again here would postpone renewals for as long as draws keep starting).
        guard held.count == 1 else { return }
        renewTimer?.schedule(afterNanos: UInt64(services.leaseRenewMs) * 1_000_000)
    }

    /// Gives the room's lease back, if this node holds it.
    func release(_ room: String) {
        guard let lease = held.removeValue(forKey: room) else { return }
        answerWaiting(room, false)
        let leases = services.lease
        worker.submit { _ = try? leases.release(room: room, owner: lease.owner) }
    }

    /// Forgets the room's lease without giving it back: the cluster refused it (another holds it).
    func forget(_ room: String) {
        guard held.removeValue(forKey: room) != nil else { return }
        answerWaiting(room, false)
    }

    /// The renew timer fired: extend every lease held, then wait for the next turn.
    private func renewAll() {
        guard !held.isEmpty else { return }
        for room in held.keys { renew(room) }
        renewTimer?.schedule(afterNanos: UInt64(services.leaseRenewMs) * 1_000_000)
    }

    private func renew(_ room: String) {
        guard var lease = held[room], !lease.renewing else { return }
        lease.renewing = true
        held[room] = lease
        let leases = services.lease, ttl = services.leaseTTLMs, clock = self.clock
        let owner = lease.owner, token = lease.token
        let back = executor.continuation { [unowned self] (result: (LeaseRenewal?, UInt64)) in
            renewed(room, token: token, result.0, sentAt: result.1)
        }
        let queued = worker.submit {
            let sent = clock.monotonicNanos()
            // Redis away (`nil`): nobody else can be granted the room either; the next turn asks again.
            back((try? leases.renew(room: room, owner: owner, token: token, ttlMs: ttl), sent))
        }
        if !queued { held[room]?.renewing = false }
    }

    private func renewed(_ room: String, token: UInt64, _ result: LeaseRenewal?, sentAt: UInt64) {
        guard var lease = held[room], lease.token == token else { return }
        lease.renewing = false
        switch result {
        case .kept?, .retaken?:
            if case .retaken? = result {
                logger.notice("took a draw's lapsed lease back: no other node was granted the room", metadata: ["room": "\(room)"])
            }
            lease.confirmedAt = max(lease.confirmedAt, sentAt)
            held[room] = lease
            answerWaiting(room, true)
        case .refused?:
            logger.error("lost a draw's lease: another node was granted the room; this node stops the draw and shows nothing more of it",
                         metadata: ["room": "\(room)"])
            // `lost` stops the draw (silently) and forgets the lease, answering whoever waits.
            held[room] = lease
            lost(room)
            forget(room)
        case nil:
            held[room] = lease
        }
    }

    private func answerWaiting(_ room: String, _ go: Bool) {
        guard let calls = waiting.removeValue(forKey: room) else { return }
        for call in calls { call(go) }
    }

    /// The server stops.
    func close() { renewTimer?.cancel() }
}
