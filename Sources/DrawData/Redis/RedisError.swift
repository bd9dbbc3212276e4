/// Why a Redis call failed, in one line an operator can act on. Never contains the password.
///
/// An error *reply* (`-ERR ...`) is not a `RedisError`: the command ran and Redis said no; it
/// comes back as `RedisReply.error`. These are the cases where no answer came at all.
public enum RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Could not connect (refused, unreachable, timed out, name not resolved).
    case connectFailed(address: String, reason: String)
    /// The server refused the login (`AUTH`) or the database (`SELECT`).
    case handshakeFailed(address: String, reason: String)
    /// The connection broke or timed out during a command; the command may or may not have run.
    case connectionLost(address: String, reason: String)
    /// Not connected, and the next attempt is not due yet (backing off after failures).
    case unavailable(address: String, retryInMs: Int)
    /// The reply could not be read.
    case protocolError(String)
    /// A command too large for hiredis' `int` argument count, or an empty one.
    case badCommand(String)
    /// The client was closed.
    case closed

    public var description: String {
        switch self {
        case .connectFailed(let address, let reason): "cannot connect to Redis at \(address): \(reason)"
        case .handshakeFailed(let address, let reason): "Redis at \(address) refused the login: \(reason)"
        case .connectionLost(let address, let reason): "lost the connection to Redis at \(address): \(reason)"
        case .unavailable(let address, let ms): "Redis at \(address) is unreachable; next attempt in \(ms) ms"
        case .protocolError(let detail): "unreadable reply from Redis: \(detail)"
        case .badCommand(let detail): "bad Redis command: \(detail)"
        case .closed: "the Redis client was closed"
        }
    }
}
