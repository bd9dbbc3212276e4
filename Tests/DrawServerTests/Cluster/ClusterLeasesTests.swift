import DrawCore
@testable import DrawServer
import Foundation
import Logging
import Testing

/// The leases of a node's draws and their proof (issue 27, fencing), without Redis: a scripted
/// `RoomLease`, the real worker thread, answers through a `FakeLoop`, a manual clock. A draw may
/// show its next step only while the last renewal sent is younger than the TTL less a margin;
/// past that it waits for a renewal, which lets it go on (kept, taken back) or ends it (refused).
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
        let clock = DrawRunnerPacingTests.ManualClock()
        let lease = ScriptedLease()
        let worker = ClusterWorker()
        let leases: ClusterLeases
        var lost: [String] = []

        init() {
            let services = ClusterServices(nodeId: "node-t", lease: lease, leaseTTLMs: 3_000, leaseRenewMs: 1_000,
                                           log: EmptyLog(), makeEvents: { _ in fatalError("no channel here") },
                                           linkUp: { true })
            let loop = self.loop
            leases = ClusterLeases(services: services, worker: worker, executor: loop.executor, clock: clock,
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

        /// Takes the lease of `room` at the clock's time now.
        func acquire(_ room: String) -> UInt64? {
            var token: UInt64?
            leases.acquire(room) { if case .acquired(let t, _) = $0 { token = t } }
            _ = settle { token != nil }
            return token
        }
    }

    private static let ms: UInt64 = 1_000_000

    @Test func aLeaseIsProvenForItsTTLLessAMarginAfterTheGrantWasSent() {
        let f = Fixture()
        f.clock.nanos = 10_000 * Self.ms
        #expect(f.acquire("quiz") == 41)
        #expect(f.leases.proofNanos == 2_500 * Self.ms)
        #expect(f.leases.mayShow("quiz"))
        f.clock.nanos = (10_000 + 2_499) * Self.ms
        #expect(f.leases.mayShow("quiz"))
        f.clock.nanos = (10_000 + 2_500) * Self.ms
        #expect(!f.leases.mayShow("quiz"), "past the proof: the draw must ask first")
        #expect(f.leases.mayShow("elsewhere"), "a room without a lease here has nothing to prove")
    }

    @Test func aLapsedProofIsRenewedAndTheDrawGoesOnFromTheRenewalsSendTime() {
        let f = Fixture()
        _ = f.acquire("quiz")
        f.clock.nanos = 4_000 * Self.ms
        f.lease.script([.success(.retaken)])
        var answer: Bool?
        f.leases.awaitShow("quiz") { answer = $0 }
        #expect(answer == nil, "it waits for Redis")
        #expect(f.settle { answer != nil })
        #expect(answer == true)
        #expect(f.leases.mayShow("quiz"))
        f.clock.nanos = (4_000 + 2_500) * Self.ms
        #expect(!f.leases.mayShow("quiz"), "proven from the renewal's send time, not the answer's")
        #expect(f.lost.isEmpty)
    }

    @Test func aRefusedRenewalEndsTheDrawAndForgetsTheLease() {
        let f = Fixture()
        _ = f.acquire("quiz")
        f.clock.nanos = 9_000 * Self.ms
        f.lease.script([.success(.refused)])
        var answer: Bool?
        f.leases.awaitShow("quiz") { answer = $0 }
        #expect(f.settle { answer != nil })
        #expect(answer == false)
        #expect(f.lost == ["quiz"])
        #expect(f.leases.token(of: "quiz") == nil && !f.leases.holds("quiz"))
    }

    @Test func whileRedisIsAwayTheDrawKeepsWaitingAndEachRenewalTurnAsksAgain() {
        let f = Fixture()
        _ = f.acquire("quiz")
        f.clock.nanos = 9_000 * Self.ms
        f.lease.script([.failure(.unavailable("down")), .success(.kept)])
        var answer: Bool?
        f.leases.awaitShow("quiz") { answer = $0 }
        #expect(f.settle { f.lease.renewCalls == 1 && f.loop.runJobs() == 0 })
        #expect(answer == nil, "no answer: the draw is neither shown on nor ended")
        #expect(f.leases.holds("quiz"), "a node in its reconnect backoff keeps its draw")
        // The renewal turn (every leaseRenewMs) asks again: Redis is back.
        f.loop.fireDueTimers()
        #expect(f.settle { answer != nil })
        #expect(answer == true && f.lost.isEmpty)
    }
}
