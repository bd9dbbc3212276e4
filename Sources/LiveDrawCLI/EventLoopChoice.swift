import ArgumentParser
import DrawServer

/// The `--event-loop` values, the names of `EventLoop` (DrawServer).
///
/// Our own enum rather than a retroactive `ExpressibleByArgument` conformance on `EventLoop`, as
/// for `LogLevel`.
public enum EventLoopChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    case poll, libev

    /// The server's value of the same name.
    public var eventLoop: EventLoop {
        switch self {
        case .poll: return .poll
        case .libev: return .libev
        }
    }

    /// The choice naming the server's default.
    public static var standard: EventLoopChoice { EventLoopChoice(rawValue: EventLoop.standard.rawValue) ?? .poll }
}
