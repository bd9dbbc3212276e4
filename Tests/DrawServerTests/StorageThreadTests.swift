@testable import DrawServer
import Foundation
import Testing

/// The storage thread runs jobs one at a time, in submission order, on one thread.
@Suite struct StorageThreadTests {
    /// Collects what the jobs saw; guarded by its lock.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(index: Int, thread: pthread_t, overlapping: Bool)] = []
        private var inside = 0

        func run(_ index: Int) {
            let overlapping = lock.withLock { inside += 1; return inside > 1 }
            lock.withLock { entries.append((index, pthread_self(), overlapping)) }
            lock.withLock { inside -= 1 }
        }

        var indices: [Int] { lock.withLock { entries.map(\.index) } }
        var threads: Int { lock.withLock { Set(entries.map { UInt($0.thread) }).count } }
        var anyOverlap: Bool { lock.withLock { entries.contains { $0.overlapping } } }
    }

    @Test func runsJobsInOrderOnOneThreadOneAtATime() {
        let thread = StorageThread(name: "test storage")
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        // Submitted from several threads at once; each thread's own jobs must stay in order.
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for i in 0..<250 { thread.submit { log.run(lane * 1000 + i) } }
        }
        thread.submit { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let indices = log.indices
        #expect(indices.count == 1000)
        for lane in 0..<4 {
            let mine = indices.filter { $0 / 1000 == lane }
            #expect(mine == mine.sorted(), "lane \(lane) ran out of order")
        }
        #expect(log.threads == 1)
        #expect(!log.anyOverlap)
        thread.finish()
        #expect(!thread.submit {}, "no work after finish")
    }

    @Test func finishLetsTheQueuedJobsRun() {
        let thread = StorageThread()
        let gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        thread.submit { gate.wait() }
        thread.submit { done.signal() }
        thread.finish()
        #expect(thread.pending == 2)
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
    }
}
