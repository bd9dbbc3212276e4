import CSysShim
import Foundation

/// Real-time scheduling for the thread that runs the server (`--realtime-priority`, issue 17).
///
/// Why: every round is a timer on the service thread, and a timer is late by however long the
/// thread waits for a CPU. Under a normal policy it shares its core with whatever else runs there
/// (the kernel's background threads, other processes, the server's own list-fetch and storage
/// threads). In scenario b (1,000 rooms drawing at once) `perf sched` showed it runnable but
/// waiting 5–50 ms behind them; with SCHED_FIFO it preempts them all (round lateness p99 about
/// 2.5 ms instead of 6–18 ms, Benchmarks/README.md). What it cannot preempt is a host that does
/// not run the virtual CPU at all.
///
/// Only the calling thread changes, with SCHED_RESET_ON_FORK: threads it starts afterwards (list
/// fetches, storage, Swift's pool) run normally, so they never compete with it at its priority.
/// Linux keeps 5% of every second for normal tasks (`sched_rt_runtime_us`), so even a loop that
/// went wrong could not take the machine.
public enum ServiceThreadScheduling {
    /// The priorities SCHED_FIFO takes.
    public static let priorities = 1...99

    /// Puts the calling thread, which must be the one that then calls `LiveDrawServer.run()`,
    /// under SCHED_FIFO at `priority`. Throws with the fix when the process may not.
    public static func makeRealtime(priority: Int) throws(ServerStartError) {
        guard priorities.contains(priority) else {
            throw .invalidConfig("realtime priority \(priority) is not in \(priorities.lowerBound)...\(priorities.upperBound)")
        }
        let error = ldsys_set_realtime(Int32(priority))
        guard error == 0 else { throw .realtimeRefused(priority: priority, reason: String(cString: strerror(error))) }
    }

    /// The calling thread's scheduling, as the kernel reports it (for tests: the server never
    /// asks, it only sets).
    struct Current: Equatable, Sendable {
        /// SCHED_FIFO (1); 0 is the normal policy.
        var isRealtime: Bool
        /// The static priority (0 under the normal policy).
        var priority: Int
        /// Whether threads started from here begin with the normal policy.
        var resetsOnFork: Bool
    }

    /// The calling thread's scheduling; nil if the kernel would not say.
    static func current() -> Current? {
        var priority: Int32 = 0, reset: Int32 = 0
        let policy = ldsys_scheduling(&priority, &reset)
        guard policy >= 0 else { return nil }
        return Current(isRealtime: policy == 1, priority: Int(priority), resetsOnFork: reset != 0)
    }
}
