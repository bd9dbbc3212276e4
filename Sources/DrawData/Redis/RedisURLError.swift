/// Why a `--redis-url` was refused. Each message names the part that is wrong and never contains
/// the password (nor the user info, which may be a password written in the wrong place).
public enum RedisURLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not of the form `scheme://...`.
    case notRedisURL
    /// Another scheme than `redis://`.
    case unsupportedScheme(String)
    /// `rediss://`: this build's hiredis has no TLS.
    case tlsUnsupported
    /// `?...` or `#...` after the address.
    case queryOrFragment
    /// `user@host` or `user:@host`: a user name with no password.
    case userWithoutPassword
    /// `:@host`.
    case emptyCredentials
    /// A `%` not followed by two hex digits, or bytes that are not UTF-8.
    case badPercentEncoding(part: String)
    case badHost(String)
    /// The port is not 1-65535 (its text is not repeated: it may be a misplaced password).
    case badPort
    /// The path is not a database number.
    case badDatabase

    public var description: String {
        let form = "expected redis://[[user]:password@]host[:port][/db]"
        return switch self {
        case .notRedisURL: "not a Redis URL (\(form))"
        case .unsupportedScheme(let scheme): "unsupported scheme '\(scheme)://' (\(form))"
        case .tlsUnsupported:
            "rediss:// (TLS) is not supported: Debian 12's hiredis 0.14 has no TLS; use redis:// on a private network, or a TLS tunnel (stunnel, spiped) to the Redis server"
        case .queryOrFragment: "query parameters and fragments are not supported (\(form))"
        case .userWithoutPassword:
            "a user name needs a password (redis://user:password@host; for a password alone, redis://:password@host)"
        case .emptyCredentials: "empty user name and password before '@' (drop the '@', or give a password)"
        case .badPercentEncoding(let part): "the \(part) has a bad percent-encoding (use %XX with two hex digits, UTF-8)"
        case .badHost(let why): "bad host: \(why) (\(form))"
        case .badPort: "bad port: must be a number 1-65535 (\(form))"
        case .badDatabase: "bad database: the path must be /N, a number 0-2147483647 (\(form))"
        }
    }
}
