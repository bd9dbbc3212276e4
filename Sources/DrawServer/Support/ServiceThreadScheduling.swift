import DrawTransport
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
///
/// The policy (the range, the error the operator reads) is here; the system call is the
/// transport's (`ThreadScheduling`).
public enum ServiceThreadScheduling {
    /// The priorities SCHED_FIFO takes.
    public static let priorities = 1...99

    /// Puts the calling thread, which must be the one that then calls `LiveDrawServer.run()`,
    /// under SCHED_FIFO at `priority`. Throws with the fix when the process may not.
    public static func makeRealtime(priority: Int) throws(ServerStartError) {
        guard priorities.contains(priority) else {
            throw .invalidConfig("realtime priority \(priority) is not in \(priorities.lowerBound)...\(priorities.upperBound)")
        }
        let error = ThreadScheduling.makeRealtime(priority: Int32(priority))
        guard error == 0 else { throw .realtimeRefused(priority: priority, reason: String(cString: strerror(error))) }
    }
}
