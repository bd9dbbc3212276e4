import Foundation

/// The one thread that calls the draw store: every write and every history read runs here, one
/// after the other, in the order they were submitted.
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
/// Threading rule: `submit` from any thread (in practice the service thread). Jobs must not
/// touch service-thread state; they hand results back through `ServiceInbox.post`.
/// `@unchecked Sendable`: every stored property is guarded by `condition`.
final class StorageThread: @unchecked Sendable {
    typealias Job = @Sendable () -> Void

    private let condition = NSCondition()
    private var jobs = FIFO<Job>()
    /// A job is running right now (it is no longer in `jobs`).
    private var busy = false
    /// `false` after `finish()`: later submissions are refused.
    private var accepting = true

    /// Starts the thread. It lives until `finish()` has been called and the queue is empty.
    init(name: String = "live-draw storage") {
        let thread = Thread { [self] in self.loop() }
        thread.name = name
        thread.start()
    }

    /// Queues `job` behind every job submitted before it. False once `finish()` was called
    /// (the job is dropped).
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard accepting else { return false }
        jobs.push(job)
        condition.broadcast()
        return true
    }

    /// Jobs submitted and not finished yet (queued or running).
    var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count + (busy ? 1 : 0)
    }

    /// Refuses new jobs; the thread runs what is queued, then exits. Does not wait.
    func finish() {
        condition.lock()
        accepting = false
        condition.broadcast()
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while jobs.isEmpty && accepting { condition.wait() }
            guard let job = jobs.pop() else {
                // Empty and no longer accepting: done.
                condition.unlock()
                return
            }
            busy = true
            condition.unlock()
            job()
            condition.lock()
            busy = false
            condition.unlock()
        }
    }
}
