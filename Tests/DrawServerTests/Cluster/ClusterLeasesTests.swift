import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

/// The leases of a node's draws (issue 27, fencing), without Redis: a scripted `RoomLease`, the
/// real worker thread, answers through a `FakeLoop`. Every renewal turn renews each lease held; a
/// refused renewal ends the draw (`lost`), and Redis away keeps the lease (issue 36: whether a
/// step may be shown is the fenced record's answer, `FencedDraws`, not a proof of the lease).
@Suite struct ClusterLeasesTests {
    /// A lease whose answers the test scripts; every call is counted.
    final class ScriptedLease: RoomLease, @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var _renewals: [Result<LeaseRenewal, CoordinationError>] = []
        private var _renewCalls = 0
        func script(_ answers: [Result<LeaseRenewal, CoordinationError>]) { lock.withLock { _renewals += answers } }
        var renewCalls: Int { lock.withLock { _renewCalls } }

        func acquire(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> UInt64? { 41 }
        func renew(room: String, owner: String, token: UInt64, ttlMs: Int) throws(CoordinationError) -> LeaseRenewal {
            let next: Result<LeaseRenewal, CoordinationError> = lock.withLock {
                _renewCalls += 1
                return _renewals.isEmpty ? .success(.kept) : _renewals.removeFirst()
            }
            return try next.get()
        }
        func release(room: String, owner: String) throws(CoordinationError) -> Bool { true }
        func owner(ofRoom room: String) throws(CoordinationError) -> String? { nil }
    }

    /// No draw is escrowed, nothing is appended: `acquire` only reads the escrow.
    struct EmptyLog: FencedDrawLog {
        func append(_ entry: FencedEntry) throws(CoordinationError) -> FenceAnswer { .accepted(receivers: 0) }
        func escrowed(room: String) throws(CoordinationError) -> EscrowedDraw? { nil }
    }

    final class Fixture {
        let loop = FakeLoop()
        let lease = ScriptedLease()
        let worker = ClusterWorker()
        let leases: ClusterLeases
        var lost: [String] = []

        init() {
            let services = ClusterServices(nodeId: "node-t", lease: lease, leaseTTLMs: 3_000, leaseRenewMs: 1_000,
                                           log: EmptyLog(), makeEvents: { _ in fatalError("no channel here") },
                                           linkUp: { true })
            let loop = self.loop
            leases = ClusterLeases(services: services, worker: worker, executor: loop.executor,
                                   logger: Logger(label: "test"), makeTimer: { loop.makeTimer($0) })
            leases.lost = { [unowned self] room in lost.append(room) }
        }

        deinit { worker.finish() }

        /// Runs the answers the worker hands back until `done`, for at most 5 s.
        func settle(until done: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while !done() {
                if loop.runJobs() == 0 {
                    guard Date() < deadline else { return false }
                    usleep(1_000)
                }
            }
            return true
        }

        /// Takes the lease of `room`.
        func acquire(_ room: String) -> UInt64? {
            var token: UInt64?
            leases.acquire(room) { if case .acquired(let t, _) = $0 { token = t } }
            _ = settle { token != nil }
            return token
        }
    }

    @Test func aRefusedRenewalEndsTheDrawAndForgetsTheLease() {
        let f = Fixture()
        #expect(f.acquire("quiz") == 41)
        f.lease.script([.success(.refused)])
        f.loop.fireDueTimers()                                         // the renewal turn
        #expect(f.settle { !f.lost.isEmpty })
        #expect(f.lost == ["quiz"])
        #expect(f.leases.token(of: "quiz") == nil && !f.leases.holds("quiz"))
    }

    @Test func whileRedisIsAwayTheLeaseIsKeptAndEachRenewalTurnAsksAgain() {
        let f = Fixture()
        _ = f.acquire("quiz")
        f.lease.script([.failure(.unavailable("down")), .success(.retaken)])
        f.loop.fireDueTimers()
        #expect(f.settle { f.lease.renewCalls == 1 && f.leases.held["quiz"]?.renewing == false })
        #expect(f.leases.holds("quiz"), "a node in its reconnect backoff keeps its draw")
        f.loop.fireDueTimers()                                         // Redis is back
        #expect(f.settle { f.lease.renewCalls == 2 && f.leases.held["quiz"]?.renewing == false })
        #expect(f.leases.token(of: "quiz") == 41 && f.lost.isEmpty)
    }
}
