import Foundation

/// File descriptors: how many the process may open, and how many connections that leaves.
///
/// Every connection is a descriptor, and so is every file the server opens meanwhile (static
/// files, `file://` lists, the database and its journal, libcurl's sockets, lws' own). Running
/// out first made accept fail with EMFILE in a loop and a draw's list file impossible to open
/// (issue 11, finding 4). So at start the soft limit is raised to the hard one, and the
/// connection limit is kept `reserve` descriptors (plus the 503 slack) below it.
enum DescriptorBudget {
    /// Descriptors kept for everything that is not a connection.
    static let reserve = 128

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit where the kernel allows (the hard
    /// limit may be "unlimited": then up to the kernel's per-process cap) and returns the soft
    /// limit in force afterwards.
    static func raiseSoftLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return Int.max }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == infinity ? nrOpen() : limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == infinity ? Int.max : Int(clamping: limit.rlim_cur)
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
