import Foundation

/// A few dedicated threads that run blocking curl transfers, so Swift's cooperative pool never
/// blocks on the network.
///
/// Why threads and not the cooperative pool: `curl_easy_perform` holds its thread for as long as
/// the transfer lasts (up to the total timeout). The cooperative pool has one thread per core
/// (two here), so two slow sources would freeze every task in the server, timers included.
///
/// Why a fixed number: a draw fetches two lists, so a handful of threads covers normal load, and
/// a flood of fetches queues here instead of creating threads without limit. A queued job's
/// timeouts start when a thread picks it up.
///
/// The threads start on the first job and then live as long as the process (they sleep on a
/// condition when idle).
final class CurlWorkerPool: @unchecked Sendable {
    // @unchecked Sendable: `jobs` and `started` are only read or written while `condition` is
    // locked; `threadCount` is immutable.

    /// The pool every `CurlHTTPClient` uses.
    static let shared = CurlWorkerPool(threadCount: 4)

    /// Worker threads are named this, followed by their number.
    static let threadNamePrefix = "ld-curl-worker-"

    private let threadCount: Int
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var started = false

    init(threadCount: Int) {
        precondition(threadCount >= 1, "a worker pool needs at least one thread")
        self.threadCount = threadCount
    }

    /// Queues `job` to run on one of the pool's threads, first in first out. Never blocks.
    func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        if !started {
            started = true
            for n in 1...threadCount {
                let thread = Thread { [self] in self.work() }
                thread.name = Self.threadNamePrefix + String(n)
                thread.start()
            }
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}
