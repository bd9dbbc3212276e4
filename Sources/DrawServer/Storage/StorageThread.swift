import DrawCore
import Foundation
import DrawTransport

/// The one thread that calls the draw store: every write and every history read runs here, in
/// the order they were submitted. Writes queued together are committed together (`GroupCommit`).
///
/// Why a thread of its own: every store call blocks on the disk (a write waits for fsync, a busy
/// database for up to its busy timeout). On the lws service thread that would stall every room's
/// rounds; on Swift's cooperative pool (two threads on a two-core machine) it would starve the
/// player loading and anything else that awaits there.
///
/// Why exactly one: order is part of correctness. A draw's `insertStarted` must precede its
/// rounds and its `finish`; round N's stamp must precede round N+1's; and a history read
/// submitted after a write sees that write — so a read can never reveal a seed before the
/// service thread has handled the `finish` that revealed it (its result is posted to the inbox
/// first). A single serial queue gives all of that without any per-draw bookkeeping.
///
/// Group commit keeps every one of those guarantees: the thread takes everything queued, and
/// makes each run of consecutive writes in one transaction, in order; anything else (a read, a
/// barrier) runs between two groups, after the writes before it were committed and their results
/// handed back, and before any write after it. Results are handed back in submission order.
///
/// Threading rule: `submit` from any thread (in practice the service thread). Jobs and result
/// handlers must not touch service-thread state; they hand results back through
/// `ServiceInbox.post`. `@unchecked Sendable`: every stored property is guarded by `condition`
/// except `store` and `retryInterval`, which are immutable.
final class StorageThread: @unchecked Sendable {
    typealias Job = @Sendable () -> Void
    /// Gets a write's result on the storage thread: `nil` when it is on disk.
    typealias WriteDone = @Sendable (StorageError?) -> Void

    private enum Work {
        case write(DrawWrite, WriteDone)
        case job(Job)
    }

    /// The most writes one transaction takes, so that one group never holds the results of the
    /// writes behind it for long.
    static let maxGroup = 1024

    private let store: RecoveringDrawStore?
    private let claimed: ThreadOwner?
    private let retryInterval: TimeInterval
    private let condition = NSCondition()
    private var queue = FIFO<Work>()
    /// Taken from `queue` and not finished yet.
    private var running = 0
    /// `false` after `finish()`: later submissions are refused.
    private var accepting = true

    /// Starts the thread. It lives until `finish()` has been called and the queue is empty.
    /// - Parameters:
    ///   - store: where writes go; `nil` for a thread that only runs jobs.
    ///   - retryInterval: how often, while idle, an abort the store could not take is tried again.
    ///   - claiming: a thread owner this thread claims when it starts (a store of its own).
    init(name: String = "live-draw storage", store: RecoveringDrawStore? = nil, claiming: ThreadOwner? = nil,
         retryInterval: TimeInterval = 1) {
        self.store = store
        self.claimed = claiming
        self.retryInterval = retryInterval
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        thread.start()
    }

    /// Queues `job` behind everything submitted before it. False once `finish()` was called
    /// (the job is dropped).
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        enqueue(.job(job))
    }

    /// Queues `write` behind everything submitted before it; `done` gets its result on the storage
    /// thread. False once `finish()` was called, or without a store (dropped, `done` never called).
    @discardableResult
    func submit(_ write: DrawWrite, done: @escaping WriteDone) -> Bool {
        guard store != nil else { return false }
        return enqueue(.write(write, done))
    }

    /// Jobs and writes submitted and not finished yet (queued or running).
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count + running
    }

    /// Refuses new work; the thread runs what is queued, then exits. Does not wait.
    func finish() {
        condition.lock()
        accepting = false
        condition.broadcast()
        condition.unlock()
    }

    private func enqueue(_ work: Work) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard accepting else { return false }
        queue.push(work)
        condition.broadcast()
        return true
    }

    private func loop() {
        // From here on only this thread may call the store (checked in debug builds).
        store?.owner.claim()
        claimed?.claim()
        while true {
            condition.lock()
            while queue.isEmpty && accepting {
                guard let store, !store.pendingAborts.isEmpty else {
                    condition.wait()
                    continue
                }
                // Idle with aborts the store could not take: try them again now and then.
                if !condition.wait(until: Date(timeIntervalSinceNow: retryInterval)) { break }
            }
            var batch: [Work] = []
            while batch.count < Self.maxGroup, let work = queue.pop() { batch.append(work) }
            running = batch.count
            let exiting = batch.isEmpty && !accepting
            condition.unlock()

            if batch.isEmpty {
                // The retry timeout, or the end: one more try, so a shutdown right after the
                // disk recovered still closes the records.
                store?.retryPendingAborts()
                if exiting { return }
                continue
            }
            run(batch)
        }
    }

    /// Runs `batch` in order: each run of consecutive writes as one group.
    private func run(_ batch: [Work]) {
        var index = 0
        while index < batch.count {
            switch batch[index] {
            case .job(let job):
                job()
                finished(1)
                index += 1
            case .write:
                var writes: [DrawWrite] = [], handlers: [WriteDone] = []
                while index < batch.count, case .write(let write, let done) = batch[index] {
                    writes.append(write)
                    handlers.append(done)
                    index += 1
                }
                guard let store else { return }   // writes are only accepted with a store
                let (errors, _) = GroupCommit.run(writes, on: store)
                for (done, error) in zip(handlers, errors) { done(error) }
                finished(writes.count)
                // A write got through: the store takes writes again, so try the held aborts now
                // rather than at the next idle timeout.
                if errors.contains(where: { $0 == nil }), !store.pendingAborts.isEmpty {
                    store.retryPendingAborts()
                }
            }
        }
    }

    private func finished(_ count: Int) {
        condition.lock()
        running -= count
        condition.unlock()
    }
}
