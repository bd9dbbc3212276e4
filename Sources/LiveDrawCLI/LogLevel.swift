import ArgumentParser
import Logging

/// The `--log-level` values, the same names as swift-log's levels.
///
/// Our own enum rather than a retroactive `ExpressibleByArgument` conformance on `Logger.Level`,
/// which would clash the day either package adds one.
public enum LogLevel: String, CaseIterable, Sendable, ExpressibleByArgument {
    case trace, debug, info, notice, warning, error, critical

    /// The swift-log level of the same name.
    public var loggerLevel: Logger.Level {
        switch self {
        case .trace: return .trace
        case .debug: return .debug
        case .info: return .info
        case .notice: return .notice
        case .warning: return .warning
        case .error: return .error
        case .critical: return .critical
        }
    }
}
