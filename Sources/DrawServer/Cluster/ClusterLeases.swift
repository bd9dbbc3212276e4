import DrawCore
import Logging

/// The draw leases this node holds (issue 27, docs/SCALING.md "Fencing"), each with its fencing
/// token, renewed every `leaseRenewMs`. The lease keeps other nodes from starting a draw in the
/// room or taking this one over; it is not what lets this node show a step (issue 36: a step is
/// shown once the fenced record acknowledged it, `FencedDraws`, whose token check refuses a
/// stale holder). A renewal that is refused (a newer token holds the room) means the cluster
/// ended the draw (`lost`). Service thread only; the calls to Redis run on the cluster worker.
final class ClusterLeases {
    /// One lease held.
    struct Held {
        let owner: String
        let token: UInt64
        /// Whether a renewal is on the worker for it now.
        var renewing = false
    }

    private let services: ClusterServices
    private let worker: ClusterWorker
    private let executor: ServiceExecutor
    private let logger: Logger
    private(set) var held: [String: Held] = [:]
    private var nextLease: UInt64 = 0
    /// Renews every lease every `leaseRenewMs`; made with the first lease (`makeTimer`).
    private var renewTimer: (any ServiceTimer)?
    private let makeTimer: (@escaping () -> Void) -> any ServiceTimer
    /// A lease was refused: another node holds the room now (service thread).
    var lost: (_ room: String) -> Void = { _ in }

    init(services: ClusterServices, worker: ClusterWorker, executor: ServiceExecutor,
         logger: Logger, makeTimer: @escaping (@escaping () -> Void) -> any ServiceTimer) {
        self.services = services
        self.worker = worker
        self.executor = executor
        self.logger = logger
        self.makeTimer = makeTimer
    }

    func token(of room: String) -> UInt64? { held[room]?.token }
    func holds(_ room: String) -> Bool { held[room] != nil }

    /// What `acquire` found.
    enum Answer: Sendable {
        /// Taken, with its token; `leftover`: a draw of an earlier holder still escrowed, which
        /// the caller must end before starting its own.
        case acquired(token: UInt64, leftover: EscrowedDraw?)
        case heldElsewhere
        case unavailable(String)
        /// Redis refused the grant for want of memory (`CoordinationError.full`): not taken.
        case full(String)
    }

    /// Takes the room's lease on the worker; `answer` runs here. Acquired, it is this node's until
    /// `release` and is renewed meanwhile.
    func acquire(_ room: String, answer: @escaping (Answer) -> Void) {
        nextLease += 1
        let owner = "\(services.nodeId)/\(nextLease)", lease = services.lease, ttl = services.leaseTTLMs
        let log = services.log
        let back = executor.continuation { [unowned self] (result: Answer) in
            if case .acquired(let token, _) = result { took(room, Held(owner: owner, token: token)) }
            answer(result)
        }
        let queued = worker.submit {
            let token: UInt64
            do throws(CoordinationError) {
                guard let granted = try lease.acquire(room: room, owner: owner, ttlMs: ttl) else { return back(.heldElsewhere) }
                token = granted
            } catch {
                if case .full = error { return back(.full(error.description)) }
                return back(.unavailable(error.description))
            }
            do throws(CoordinationError) {
                back(.acquired(token: token, leftover: try log.escrowed(room: room)))
            } catch {
                // Whether a draw is left over is unknown: no start on a guess; the lease goes back.
                _ = try? lease.release(room: room, owner: owner)
                back(.unavailable(error.description))
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
        let leases = services.lease
        worker.submit { _ = try? leases.release(room: room, owner: lease.owner) }
    }

    /// Forgets the room's lease without giving it back: the cluster refused it (another holds it).
    func forget(_ room: String) {
        held.removeValue(forKey: room)
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
        let leases = services.lease, ttl = services.leaseTTLMs
        let owner = lease.owner, token = lease.token
        let back = executor.continuation { [unowned self] (result: LeaseRenewal?) in
            renewed(room, token: token, result)
        }
        let queued = worker.submit {
            // Redis away (`nil`): nobody else can be granted the room either; the next turn asks again.
            back(try? leases.renew(room: room, owner: owner, token: token, ttlMs: ttl))
        }
        if !queued { held[room]?.renewing = false }
    }

    private func renewed(_ room: String, token: UInt64, _ result: LeaseRenewal?) {
        guard var lease = held[room], lease.token == token else { return }
        lease.renewing = false
        switch result {
        case .kept?, .retaken?:
            if case .retaken? = result {
                logger.notice("took a draw's lapsed lease back: no other node was granted the room", metadata: ["room": "\(room)"])
            }
            held[room] = lease
        case .refused?:
            logger.error("lost a draw's lease: another node was granted the room; this node stops the draw and shows nothing more of it",
                         metadata: ["room": "\(room)"])
            // `lost` stops the draw (silently) and forgets the lease.
            held[room] = lease
            lost(room)
            forget(room)
        case nil:
            held[room] = lease
        }
    }

    /// The server stops.
    func close() { renewTimer?.cancel() }
}
