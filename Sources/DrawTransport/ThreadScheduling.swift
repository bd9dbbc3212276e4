import CSysShim

/// The calling thread's scheduling policy, set and read through the kernel (the server's
/// `ServiceThreadScheduling` says when and why).
package enum ThreadScheduling {
    /// Puts the calling thread under SCHED_FIFO at `priority`, with SCHED_RESET_ON_FORK. 0, or
    /// the `errno` of the refusal.
    package static func makeRealtime(priority: Int32) -> Int32 {
        ldsys_set_realtime(priority)
    }

    /// The calling thread's scheduling, as the kernel reports it (for tests: the server never
    /// asks, it only sets).
    package struct Current: Equatable, Sendable {
        /// SCHED_FIFO (1); 0 is the normal policy.
        package var isRealtime: Bool
        /// The static priority (0 under the normal policy).
        package var priority: Int
        /// Whether threads started from here begin with the normal policy.
        package var resetsOnFork: Bool

        package init(isRealtime: Bool, priority: Int, resetsOnFork: Bool) {
            self.isRealtime = isRealtime
            self.priority = priority
            self.resetsOnFork = resetsOnFork
        }
    }

    /// The calling thread's scheduling; nil if the kernel would not say.
    package static func current() -> Current? {
        var priority: Int32 = 0, reset: Int32 = 0
        let policy = ldsys_scheduling(&priority, &reset)
        guard policy >= 0 else { return nil }
        return Current(isRealtime: policy == 1, priority: Int(priority), resetsOnFork: reset != 0)
    }
}
