import CLwsShim
import Foundation
import Logging

/// The transport's own log lines (libwebsockets' errors and warnings), through the server's logger: with
/// `--log-format json` every line of the process must be one JSON object, and lws would
/// otherwise print its own format to stderr.
///
/// lws has one log callback per process, so the last server to start routes it (tests run
/// several servers in one process; they share the logger's configuration anyway).
package enum TransportLog {
    private static let lock = NSLock()
    /// Guarded by `lock`: lws may log from any thread that calls into it.
    nonisolated(unsafe) private static var logger: Logger?

    /// Routes lws' errors and warnings to `logger`, tagged `component=libwebsockets`.
    package static func route(to logger: Logger) {
        var tagged = logger
        tagged[metadataKey: "component"] = "libwebsockets"
        lock.withLock { Self.logger = tagged }
        apply()
    }

    /// Sets lws' level, and its sink: the logger once `route` gave one, else stderr.
    static func apply() {
        let routed = lock.withLock { Self.logger != nil }
        ldlws_set_log_level(LLL_ERR | LLL_WARN, routed ? lwsLogLine : nil)
    }

    fileprivate static func log(level: Int32, line: String) {
        guard let logger = lock.withLock({ Self.logger }) else { return }
        // lws' lines end with a newline (and may carry a trailing space): one log entry each.
        let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if level & LLL_ERR != 0 {
            logger.error("\(text)")
        } else {
            logger.warning("\(text)")
        }
    }
}

/// The C sink lws calls (see `ldlws_set_log_level`).
private func lwsLogLine(level: Int32, line: UnsafePointer<CChar>?) {
    guard let line else { return }
    TransportLog.log(level: level, line: String(cString: line))
}
