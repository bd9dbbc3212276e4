import ArgumentParser
import Logging

/// The `--log-format` values: how each log line is written to standard output.
public enum LogFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// swift-log's stream format, for people reading a terminal.
    case text
    /// One JSON object per line (`JSONLogHandler`), for log collectors. The lobby's host link is
    /// not in this log: it goes once to standard error (`StartupBanner.hostLinkLine`).
    case json

    /// A handler factory for `LoggingSystem.bootstrap`, every handler at `level`.
    public func handlerFactory(level: Logger.Level) -> @Sendable (String) -> any LogHandler {
        switch self {
        case .text:
            return { label in
                var handler = StreamLogHandler.standardOutput(label: label)
                handler.logLevel = level
                return handler
            }
        case .json:
            return { label in
                var handler = JSONLogHandler(label: label)
                handler.logLevel = level
                return handler
            }
        }
    }
}
