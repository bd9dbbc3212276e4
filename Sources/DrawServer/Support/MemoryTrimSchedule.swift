/// When a long-running server gives the allocator's free pages back to the kernel: once every
/// `periodSeconds` of its one-second housekeeping. A value; the caller performs the trim (on the
/// draw store's thread, never the service thread: `malloc_trim` takes each arena's lock and walks
/// it, a few milliseconds).
///
/// Why periodically and not only after uploads (`UploadParseQueue`): glibc keeps what each thread
/// frees in that thread's arena, and the server's threads (service, stores, cluster worker,
/// subscriber, archiver) each touch draws' lists of thousands of names now and then. Their free
/// pages stay resident at each arena's high-water mark, so a node that ran for half an hour held
/// 5–10 % more than at minute 5 with the same live data (the cluster soak, issue 44).
struct MemoryTrimSchedule {
    /// Seconds between trims.
    let periodSeconds: Int
    private var untilNext: Int

    init(periodSeconds: Int = 60) {
        self.periodSeconds = max(1, periodSeconds)
        untilNext = self.periodSeconds
    }

    /// One housekeeping second passed: true when a trim is due now.
    mutating func second() -> Bool {
        untilNext -= 1
        guard untilNext <= 0 else { return false }
        untilNext = periodSeconds
        return true
    }
}
