/// Where the Redis server is and how to log in: `redis://[[user]:password@]host[:port][/db]`.
///
/// Parsed by hand, byte by byte, rather than with Foundation's URL types: the rules are few, and
/// each mistake gets its own message (`RedisURLError`) that never repeats the password.
/// `rediss://` (TLS) is refused: Debian 12's hiredis (0.14) cannot speak TLS, and falling back to
/// plain TCP would send the password in the clear.
///
/// - The user info is everything before the last `@`; the user name ends at its first `:`. Both
///   are percent-decoded (`%40` for `@`, `%3A` for `:`), as in any URL.
///   A password without a user name logs in as Redis' `default` user (`AUTH password`); a user
///   name needs a password (`AUTH user password`, Redis 6 ACLs).
/// - The host is a name, an IPv4 address, or an IPv6 address in brackets (`[::1]`).
/// - The port defaults to 6379; the database to 0 (`SELECT` is sent only for another one).
/// - No query or fragment: options go on the command line, not in the URL.
public struct RedisURL: Sendable, Hashable, CustomStringConvertible {
    public static let defaultPort = 6379

    public let host: String
    public let port: Int
    /// The ACL user; `nil` logs in as `default` (or not at all without a password).
    public let username: String?
    /// Never printed: `description` shows `***` in its place.
    public let password: String?
    public let database: Int

    public init(host: String, port: Int = RedisURL.defaultPort, username: String? = nil,
                password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// Parses `text`; see the type's documentation for the forms.
    public init(parsing text: String) throws(RedisURLError) {
        var rest = Substring(text)
        if rest.hasPrefix("rediss://") { throw .tlsUnsupported }
        guard rest.hasPrefix("redis://") else {
            // Name the scheme only if it looks like one, so a mistyped secret is not echoed.
            let scheme = rest.firstRange(of: "://").map { String(rest[..<$0.lowerBound]) }
            if let scheme, scheme.utf8.count <= 16, scheme.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" }) {
                throw .unsupportedScheme(scheme)
            }
            throw .notRedisURL
        }
        rest = rest.dropFirst("redis://".count)

        // The user info ends at the last "@": a password is often base64 or random and may hold
        // "/", "?", "#" or "@" that its owner did not percent-encode; a host, port or database
        // never holds an "@", so this reading is the only sensible one.
        var username: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            (username, password) = try Self.credentials(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        if rest.contains("?") || rest.contains("#") { throw .queryOrFragment }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]
        let (host, port) = try Self.hostAndPort(authority)
        self.init(host: host, port: port, username: username, password: password,
                  database: try Self.database(path))
    }

    /// `redis://user:***@host:port/db`: the password is never shown.
    public var description: String {
        var text = "redis://"
        if username != nil || password != nil {
            text += username.map(Self.percentEncoded) ?? ""
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        text += ":\(port)"
        if database != 0 { text += "/\(database)" }
        return text
    }

    private static func credentials(_ userInfo: Substring) throws(RedisURLError) -> (String?, String?) {
        guard let colon = userInfo.firstIndex(of: ":") else {
            // `redis://secret@host` is ambiguous (user or password?); say so without echoing it.
            throw .userWithoutPassword
        }
        let user = try percentDecoded(userInfo[..<colon], part: "user name")
        let pass = try percentDecoded(userInfo[userInfo.index(after: colon)...], part: "password")
        if pass.isEmpty { throw user.isEmpty ? .emptyCredentials : .userWithoutPassword }
        return (user.isEmpty ? nil : user, pass)
    }

    private static func hostAndPort(_ authority: Substring) throws(RedisURLError) -> (String, Int) {
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .badHost("unclosed '['") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .badHost("unexpected text after ']'") }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .badHost("not an IPv6 address in brackets")
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            } else {
                host = authority
            }
            guard !host.isEmpty else { throw .badHost("missing") }
            let allowed = host.utf8.allSatisfy { b in
                (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                    || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
                    || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "_")
            }
            guard allowed, host.utf8.count <= 253 else {
                throw .badHost("only letters, digits, '-', '.' and '_' (IPv6 goes in brackets)")
            }
        }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = decimal(portText, max: 65_535), port >= 1 else { throw .badPort }
        return (String(host), port)
    }

    private static func database(_ path: Substring) throws(RedisURLError) -> Int {
        let digits = path.dropFirst()   // the "/" itself, if any
        if digits.isEmpty { return 0 }
        guard let db = decimal(digits, max: Int(Int32.max)) else { throw .badDatabase }
        return db
    }

    /// A non-negative decimal of at most 10 digits, no sign, not above `max`.
    private static func decimal(_ text: Substring, max: Int) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 10,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), value <= max else { return nil }
        return value
    }

    private static func percentDecoded(_ text: Substring, part: String) throws(RedisURLError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let b = iterator.next() {
            guard b == UInt8(ascii: "%") else { bytes.append(b); continue }
            guard let hi = iterator.next().flatMap(hexValue), let lo = iterator.next().flatMap(hexValue) else {
                throw .badPercentEncoding(part: part)
            }
            bytes.append(hi << 4 | lo)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .badPercentEncoding(part: part) }
        return decoded
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for b in text.utf8 {
            let plain = (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
                || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "~")
            if plain { out.unicodeScalars.append(Unicode.Scalar(b)) } else { out += "%" + String(b, radix: 16, uppercase: true).leftPadded }
        }
        return out
    }
}

private extension String {
    var leftPadded: String { count == 1 ? "0" + self : self }
}
