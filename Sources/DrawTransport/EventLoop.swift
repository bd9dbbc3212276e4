import CLwsShim

/// Which loop runs the transport, libwebsockets (`ServerConfig.eventLoop`, `--event-loop`).
///
/// Why it matters: lws' built-in loop calls `poll()` over every socket on every wake-up, so with
/// many connections open each wake-up costs in proportion to all of them, idle ones included
/// (issue 17: 75% of the CPU in scenario b). `libev` runs lws on a libev loop of our own on epoll,
/// where a wake-up costs what is ready. Benchmarks/README.md, "Event loop", has the measurements.
public enum EventLoop: String, CaseIterable, Sendable {
    /// lws' own poll() loop: needs nothing beyond libwebsockets.
    case poll
    /// lws' libev plugin on our epoll-backed libev loop (Debian: libwebsockets-evlib-ev).
    case libev
    // lws' glib plugin was measured and left out: GLib's loop polls every source with poll()
    // too, and cost as much CPU as `poll` in scenario b.

    /// The one the server uses unless told otherwise.
    public static let standard: EventLoop = .libev

    var shimKind: ldlws_event_loop {
        switch self {
        case .poll: return LDLWS_LOOP_POLL
        case .libev: return LDLWS_LOOP_LIBEV
        }
    }

    /// `nil` when this loop can run on this host, else what is missing (a package to install).
    public var unavailableReason: String? {
        ldlws_event_loop_problem(shimKind).map { String(cString: $0) }
    }
}
