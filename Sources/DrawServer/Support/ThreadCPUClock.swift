import Glibc

/// The CPU time the calling thread has used, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`).
///
/// Why CPU time and not the wall clock: a service turn's wall time includes the wait for
/// something to happen and any time the host did not run the thread; its CPU time is only what
/// the server itself did, so a long turn in `livedraw_service_turn_cpu_seconds` is our own work
/// holding up every timer due meanwhile, never the machine's stall (issue 17).
enum ThreadCPUClock {
    /// Nanoseconds of CPU the calling thread has used so far; 0 if the clock cannot be read.
    static func nanos() -> UInt64 {
        var ts = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0, ts.tv_sec >= 0, ts.tv_nsec >= 0 else { return 0 }
        return UInt64(ts.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ UInt64(ts.tv_nsec)
    }
}
