import Foundation

/// The thread that makes the cluster's blocking calls (publish, lease) for the service thread,
/// one at a time in submission order, so a round's publish never overtakes the one before and the
/// service thread never waits for Redis (threading rule: results come back as service-thread jobs).
///
/// The queue is bounded: with Redis slow or away, jobs past `capacity` are refused (`submit`
/// returns false) rather than piling up; the caller counts or answers that.
final class ClusterWorker: @unchecked Sendable {
    // @unchecked Sendable: `jobs`, `finishing` are guarded by `condition`.
    typealias Job = @Sendable () -> Void

    static let threadName = "ld-cluster"
    let capacity: Int
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var finishing = false
    private let finished = DispatchSemaphore(value: 0)

    init(capacity: Int = 4096) {
        self.capacity = capacity
        let thread = Thread { [self] in
            while let job = next() { job() }
            finished.signal()
        }
        thread.name = Self.threadName
        thread.start()
    }

    /// Queues `job`; false when the queue is full or the worker is finishing.
    @discardableResult
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !finishing, jobs.count - head < capacity else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Runs what is queued, then ends the thread; returns when it has ended.
    func finish() {
        condition.lock()
        let first = !finishing
        finishing = true
        condition.signal()
        condition.unlock()
        if first { finished.wait() }
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count {
            if finishing { return nil }
            condition.wait()
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count { jobs.removeAll(keepingCapacity: true); head = 0 }
        return job
    }
}
