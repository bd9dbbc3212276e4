import Foundation

/// File descriptors: how many the process may open, and how many connections that leaves.
///
/// Every connection is a descriptor, and so is every file the server opens meanwhile (static
/// files, `file://` lists, the database and its journal, libcurl's sockets, lws' own). Running
/// out first made accept fail with EMFILE in a loop and a draw's list file impossible to open
/// (issue 11, finding 4). So at start the soft limit is set to what the connection limit needs
/// plus `reserve` descriptors (and the 503 slack), as far as the hard limit allows, and the
/// connection limit is lowered to fit under it when the hard limit is lower.
enum DescriptorBudget {
    /// Descriptors kept for everything that is not a connection.
    static let reserve = 128

    /// Sets the soft `RLIMIT_NOFILE` to `wanted` descriptors, or as near as the hard limit
    /// allows (an "unlimited" hard limit means the kernel's per-process cap), and returns the soft
    /// limit in force afterwards.
    ///
    /// Lowered too, not only raised: lws sizes its descriptor tables by the soft limit and, in
    /// the Debian build, scans its whole lookup table on every connection it frees
    /// (`sanity_assert_no_sockfd_traces`, 8 bytes per descriptor). Under a container's usual
    /// 1,048,576 that is 8 MB read per closed connection; at what the configured connections
    /// need, it is what they cost anyway (issue 17).
    static func fitSoftLimit(to wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        let hard = limit.rlim_max == infinity ? nrOpen() : limit.rlim_max
        let target = softLimitTarget(wanted: wanted, hard: hard)
        if target != limit.rlim_cur {
            var fitted = limit
            fitted.rlim_cur = target
            if setrlimit(resource, &fitted) == 0 { limit = fitted }
        }
        return limit.rlim_cur == infinity ? Int.max : Int(clamping: limit.rlim_cur)
    }

    /// The soft limit for `wanted` descriptors under `hard`: `wanted`, at least 1, at most `hard`.
    static func softLimitTarget(wanted: Int, hard: rlim_t) -> rlim_t {
        min(rlim_t(clamping: max(wanted, 1)), hard)
    }

    /// The descriptors `connections` connections need: theirs, the 503 `slack` and the reserve
    /// (saturating: the sum of large settings must not trap).
    static func needed(connections: Int, slack: Int) -> Int {
        connections.addingSaturating(slack).addingSaturating(reserve)
    }

    /// The most connections `limit` descriptors leave room for, counting the `slack` accepted
    /// past the connection limit to be told 503. Negative or zero: not even one.
    static func connections(forLimit limit: Int, slack: Int) -> Int {
        let (rest, overflow) = limit.subtractingReportingOverflow(reserve + slack)
        return overflow ? 0 : rest
    }

    private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }

    /// RLIM_INFINITY, all ones: the C macro does not import (it is written as a cast of -1).
    private static let infinity = rlim_t.max

    /// The kernel's per-process cap (fs.nr_open), for an unlimited hard limit.
    private static func nrOpen() -> rlim_t {
        let text = (try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8)) ?? ""
        return rlim_t(text.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap { $0 > 0 ? $0 : nil } ?? 1_048_576
    }
}

private extension Int {
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }
}
