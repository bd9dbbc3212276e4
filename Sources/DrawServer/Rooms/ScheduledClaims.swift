import DrawCore
import Logging

/// This node's claims of scheduled draws in the store (issues 30 and 36): taking a draw at its
/// time (or for a cancel), keeping the claim while its room is busy, giving it back when the
/// server stops before starting it, and letting a draw recorded missed leave the store. Service
/// thread only; the store is called on the rooms' thread. It counts and logs each answer; what
/// an answer means for the draws waiting is `DrawScheduler`'s (`ScheduledDrawBook`).
///
/// In cluster mode a claim at its time is a lease (`RedisRoomStore.claimScript`): the draw stays
/// in the store until its first step is recorded, so a node that dies between its claim and its
/// start leaves it to another node. On one node the claim takes the draw out (SQLite).
final class ScheduledClaims {
    private let logger: Logger
    private let metrics: ServerMetrics
    private unowned let storage: ServerStorage

    init(logger: Logger, metrics: ServerMetrics, storage: ServerStorage) {
        self.logger = logger
        self.metrics = metrics
        self.storage = storage
    }

    /// What a claim got.
    enum Answer: Equatable {
        /// This node took it: it alone starts (or records) the draw.
        case won
        /// Taken already (started, cancelled, recorded), or never kept: nothing to do.
        case lost
        /// Ask again in `inMs`: the store's clock says its time has not come (`waiting`: it still
        /// waits, as the room's snapshot shows), another node's claim holds it while that node
        /// starts it, or the store failed.
        case later(inMs: Double, waiting: Bool)
    }

    /// Whether draws are kept in a store (without one, a draw lives in memory and is this node's).
    var keepsDraws: Bool { storage.schedules != nil }

    /// Claims `draw`: `due`, at its time, which the store's clock confirms (a cancel takes it any
    /// time). `retryMs`: when a store that failed is asked again.
    func claim(_ draw: ScheduledDraw, due: Bool, retryMs: Double, then: @escaping (Answer) -> Void) {
        guard keepsDraws else { return then(.won) }
        let id = draw.drawId
        let submitted = storage.scheduleJob({ store throws(StorageError) in
            due ? try store.claimDue(drawId: id) : try store.claim(drawId: id).map(ScheduledDrawClaim.taken) ?? .gone
        }) { [unowned self] result in
            switch result {
            case .success(.early(let inMs)):
                // This node's clock (or its offset) ran ahead of the store's: not an answer to count.
                logger.debug("scheduled draw claimed early", metadata: ["drawId": "\(id)", "inMs": "\(inMs)"])
                then(.later(inMs: inMs, waiting: true))
            case .success(.held(let inMs)):
                // Another node is starting it; should that node die first, its claim lapses and
                // this one takes the draw then. Not shown as waiting meanwhile: it is starting.
                metrics.scheduledClaimAnswered(outcome: "held")
                then(.later(inMs: inMs, waiting: false))
            case .success(.taken):
                metrics.scheduledClaimAnswered(outcome: "won")
                then(.won)
            case .success(.gone):
                metrics.scheduledClaimAnswered(outcome: "lost")
                then(.lost)
            case .failure(let error):
                metrics.scheduledClaimAnswered(outcome: "failed")
                logger.error("could not claim a scheduled draw", metadata: ["drawId": "\(id)", "error": "\(error)"])
                then(.later(inMs: retryMs, waiting: false))
            }
        }
        if !submitted { then(.lost) }
    }

    /// Keeps this node's claim of `draw` for another lease before it is tried again: `true` while
    /// it is still this node's, `false` once not (a claim that lapsed may have gone to another
    /// node, which starts it), `nil` when the store failed.
    func renew(_ draw: ScheduledDraw, then: @escaping (Bool?) -> Void) {
        guard keepsDraws else { return then(true) }
        let id = draw.drawId
        let submitted = storage.scheduleJob({ store throws(StorageError) in try store.renewClaim(drawId: id) }) { [unowned self] result in
            switch result {
            case .success(let kept):
                if !kept { logger.info("scheduled draw taken over by another node", metadata: ["drawId": "\(id)"]) }
                then(kept)
            case .failure(let error):
                logger.warning("could not keep the claim of a scheduled draw", metadata: ["drawId": "\(id)", "error": "\(error)"])
                then(nil)
            }
        }
        if !submitted { stopped(id) }
    }

    /// The server stops before starting `draw`: back in the store (cluster mode: the claim is
    /// given up, so another node takes it at its next read instead of once the claim lapses).
    func giveBack(_ draw: ScheduledDraw) {
        let id = draw.drawId
        let submitted = storage.scheduleJob({ store throws(StorageError) in try store.returnClaim(draw) }) { [unowned self] result in
            if case .failure(let error) = result {
                logger.error("could not keep a scheduled draw for the next start", metadata: ["drawId": "\(id)", "error": "\(error)"])
            }
        }
        if !submitted { stopped(id) }
    }

    /// `drawId` was recorded missed: it leaves the store. (One not recorded stays: its claim
    /// lapses and a node records it then.)
    func finish(drawId id: String) {
        guard keepsDraws else { return }
        _ = storage.scheduleJob({ store throws(StorageError) in try store.finishClaim(drawId: id) }) { [unowned self] result in
            if case .failure(let error) = result {
                logger.warning("could not take a missed scheduled draw out of the store", metadata: ["drawId": "\(id)", "error": "\(error)"])
            }
        }
    }

    private func stopped(_ id: String) {
        logger.warning("a scheduled draw was not started before the server stopped", metadata: ["drawId": "\(id)"])
    }
}
