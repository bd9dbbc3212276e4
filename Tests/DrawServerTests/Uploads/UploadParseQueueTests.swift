@testable import DrawServer
import Foundation
import Testing

/// Issue 31, finding 2: the parse queue's limits, each one past it. The queue runs on a
/// `FakeLoop` (the test thread is the service thread) and its parses do not run until the test
/// runs them, so which parse runs, waits or is refused is decided by the test alone: no thread
/// is blocked, no time is waited for.
@Suite struct UploadParseQueueTests {
    /// The queue, its clock, and the parses it handed over to run (in order), not run yet.
    final class Fixture {
        let loop = FakeLoop()
        let clock = DrawRunnerPacingTests.ManualClock()
        var handedOver: [@Sendable () -> Void] = []
        private(set) var queue: UploadParseQueue!
        /// What each submitted parse was answered, by its number.
        var outcomes: [Int: Result<Int, UploadParseQueue.Refusal>] = [:]
        /// The parses whose work ran, by number.
        let ran = Ran()

        init() {
            queue = UploadParseQueue(clock: clock, executor: loop.executor) { [unowned self] work in handedOver.append(work) }
        }

        /// Submits parse `n`, due `limits.workNanos` from now; its work records that it ran.
        func submit(_ n: Int) {
            let ran = ran
            queue.submit(by: queue.deadline(), { ran.add(n); return n }, then: { [unowned self] in outcomes[n] = $0 })
        }

        /// Runs the oldest parse handed over, then what it handed back to the service thread.
        func finishOldest() {
            let work = handedOver.removeFirst()
            work()
            loop.runJobs()
        }
    }

    final class Ran: @unchecked Sendable {
        private let lock = NSLock()
        private var numbers: [Int] = []
        func add(_ n: Int) { lock.withLock { numbers.append(n) } }
        var all: [Int] { lock.withLock { numbers } }
    }

    @Test func theThirdParseWaitsUntilOneOfTheTwoRunningEnds() {
        let f = Fixture()
        for n in 1...3 { f.submit(n) }
        #expect(f.handedOver.count == 2, "two parses run at once")
        #expect(f.queue.runningCount == 2 && f.queue.waitingCount == 1)
        #expect(f.outcomes.isEmpty)

        f.finishOldest()
        #expect(f.outcomes[1] == .success(1))
        #expect(f.handedOver.count == 2, "the third started when the first ended")
        #expect(f.queue.waitingCount == 0)
        f.finishOldest()
        f.finishOldest()
        #expect(f.outcomes == [1: .success(1), 2: .success(2), 3: .success(3)])
        #expect(f.ran.all == [1, 2, 3])
        #expect(f.queue.runningCount == 0)
    }

    @Test func theEleventhIsRefusedAtOnceAndTheWaitingRunInArrivalOrder() {
        let f = Fixture()
        for n in 1...10 { f.submit(n) }
        #expect(f.queue.runningCount == 2 && f.queue.waitingCount == 8)
        #expect(f.outcomes.isEmpty, "ten are taken: two run, eight wait")

        f.submit(11)
        #expect(f.outcomes[11] == .failure(.full), "the eleventh is refused at once")
        #expect(f.queue.waitingCount == 8)

        while !f.handedOver.isEmpty { f.finishOldest() }
        #expect(f.ran.all == Array(1...10), "every one taken ran, in arrival order; the refused one never ran")
        #expect((1...10).allSatisfy { f.outcomes[$0] == .success($0) })
        // Room again once the queue has drained.
        f.submit(12)
        #expect(f.queue.runningCount == 1 && f.outcomes[12] == nil)
    }

    @Test func aParseWaitingPastItsDeadlineIsGivenUpWithoutRunning() {
        let f = Fixture()
        for n in 1...3 { f.submit(n) }
        f.clock.nanos += UploadParseQueue.Limits.standard.workNanos + 1
        f.finishOldest()
        #expect(f.outcomes[1] == .failure(.late), "the first came back after its deadline: its list does not count")
        #expect(f.outcomes[3] == .failure(.late), "the third's turn came after its deadline: refused")
        #expect(f.handedOver.count == 1, "only the second is still running; the third never started")
        f.finishOldest()
        #expect(f.ran.all == [1, 2], "the late waiting parse's work never ran")
        #expect(f.outcomes[2] == .failure(.late))
        #expect(f.queue.runningCount == 0 && f.queue.waitingCount == 0)
    }

    @Test func aParseBackJustAtItsDeadlineCounts() {
        let f = Fixture()
        f.submit(1)
        f.clock.nanos += UploadParseQueue.Limits.standard.workNanos
        f.finishOldest()
        #expect(f.outcomes[1] == .success(1))
    }

    @Test func theDefaultRunnerRunsTheParseOutsideSwiftsPool() async {
        // Not inside any task, so not on a thread of Swift's cooperative pool (as `Task.detached`
        // was): the work may block, as a test's parse does, without holding up any task.
        let inTask = await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in
            UploadParseQueue.onThread { done.resume(returning: withUnsafeCurrentTask { $0 != nil }) }
        }
        #expect(!inTask)
        let inDetachedTask = await Task.detached { withUnsafeCurrentTask { $0 != nil } }.value
        #expect(inDetachedTask, "the check tells a pool thread apart")
    }
}
