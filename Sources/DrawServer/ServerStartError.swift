/// Why `LiveDrawServer.init` refused to start. `description` is one line for the operator.
public enum ServerStartError: Error, Sendable, CustomStringConvertible {
    /// Another process listens on the port.
    case portInUse(host: String, port: Int)
    /// `publicDir` does not exist or is not a directory.
    case publicDirMissing(String)
    /// A TLS certificate or key file cannot be read.
    case unreadableTLSFile(String)
    /// Only one of certificate and key was given.
    case incompleteTLS
    /// A setting is out of range.
    case invalidConfig(String)
    /// libwebsockets could not create the server for another reason (its log has details).
    case listenFailed(host: String, port: Int)
    /// The listening socket could not be opened or bound (not "in use": that is `portInUse`).
    case listenError(host: String, port: Int, reason: String)
    /// The process may open too few file descriptors to serve even one connection.
    case tooFewDescriptors(limit: Int, needed: Int)
    /// The chosen event loop's library or lws plugin is not installed.
    case eventLoopUnavailable(EventLoop, reason: String)
    /// `--realtime-priority` was asked for and the kernel refused it (no real-time limit, no CAP_SYS_NICE).
    case realtimeRefused(priority: Int, reason: String)

    public var description: String {
        switch self {
        case .portInUse(let host, let port):
            return "cannot listen on \(host):\(port): the port is already in use"
        case .publicDirMissing(let path):
            return "public directory '\(path)' does not exist or is not a directory"
        case .unreadableTLSFile(let path):
            return "cannot read TLS file '\(path)'"
        case .incompleteTLS:
            return "TLS needs both a certificate and a key"
        case .invalidConfig(let why):
            return "invalid configuration: \(why)"
        case .listenFailed(let host, let port):
            return "cannot listen on \(host):\(port) (libwebsockets refused; see its log line above)"
        case .listenError(let host, let port, let reason):
            return "cannot listen on \(host):\(port): \(reason)"
        case .tooFewDescriptors(let limit, let needed):
            return "only \(limit) file descriptors may be open (ulimit -n); the server needs more than \(needed)"
        case .eventLoopUnavailable(let loop, let reason):
            return "event loop '\(loop.rawValue)' cannot run here: \(reason); install it, or choose --event-loop poll"
        case .realtimeRefused(let priority, let reason):
            return "real-time priority \(priority) refused: \(reason); the process needs a real-time limit of at " +
                "least \(priority) (ulimit -r; docker run --ulimit rtprio=\(priority)) or CAP_SYS_NICE, " +
                "or leave --realtime-priority at 0"
        }
    }
}
