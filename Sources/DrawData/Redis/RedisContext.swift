import CHiredisShim
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One hiredis connection: connect, log in, send argv commands, read replies. Not thread-safe:
/// its owner (`RedisConnection` under its lock, `RedisSubscriber` on its thread) is the only
/// caller. Freed on `deinit`; after any I/O error it is broken for good and must be replaced
/// (hiredis does not recover a context whose stream is out of step).
final class RedisContext {
    private let context: UnsafeMutablePointer<redisContext>
    let address: String

    /// Connects to `url`'s host and port within `connectTimeoutMs`, sets the command timeout,
    /// TCP keepalive, then logs in (`AUTH`) and selects the database (`SELECT`) if the URL says so.
    init(url: RedisURL, connectTimeoutMs: Int, commandTimeoutMs: Int, selectDatabase: Bool = true) throws(RedisError) {
        address = "\(url.host.contains(":") ? "[\(url.host)]" : url.host):\(url.port)"
        guard let context = ldredis_connect(url.host, Int32(url.port), connectTimeoutMs) else {
            throw .connectFailed(address: address, reason: "out of memory")
        }
        self.context = context
        if ldredis_error(context) != 0 {
            throw .connectFailed(address: address, reason: errorText)
        }
        guard ldredis_set_timeout(context, commandTimeoutMs) == Int32(LDREDIS_OK.rawValue) else {
            throw .connectFailed(address: address, reason: "cannot set the timeout: \(errorText)")
        }
        _ = ldredis_enable_keepalive(context)
        try handshake(url, selectDatabase: selectDatabase)
    }

    deinit { ldredis_free(context) }

    /// The socket, for `poll`.
    var fd: Int32 { ldredis_fd(context) }

    /// hiredis' message for the last error (never holds a password: hiredis' errors are about
    /// sockets and parsing).
    var errorText: String {
        guard let text = ldredis_errstr(context) else { return "unknown error" }
        let message = String(cString: text)
        return message.isEmpty ? "connection closed" : message
    }

    /// Whether the server has already closed (or reset) this idle connection. Only for a context
    /// used one command at a time: with no reply pending, anything readable on the socket is the
    /// server's FIN or RST (a Redis that restarted or dropped us), so a command sent now would
    /// fail. One `poll` with no wait; a peer gone without a FIN is not seen (that needs a PING).
    var peerHasClosed: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        // A failed poll says nothing about the peer: let the command find out.
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0
    }

    /// Sends `arguments` and waits for the reply (bounded by the command timeout).
    func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        let result: Result<UnsafeMutablePointer<redisReply>?, RedisError> = Self.withArgv(arguments) { argc, argv, lengths in
            ldredis_command_argv(context, argc, argv, lengths)
        }
        guard let reply = try result.get() else { throw .connectionLost(address: address, reason: errorText) }
        defer { ldredis_free_reply(reply) }
        return try RedisReply(copying: reply)
    }

    /// Queues `arguments` without sending (see `flush`).
    func append(_ arguments: [[UInt8]]) throws(RedisError) {
        let status = try Self.withArgv(arguments) { argc, argv, lengths in
            ldredis_append_argv(context, argc, argv, lengths)
        }.get()
        guard status == Int32(LDREDIS_OK.rawValue) else { throw .connectionLost(address: address, reason: errorText) }
    }

    /// Sends everything queued (blocking, bounded by the command timeout).
    func flush() throws(RedisError) {
        guard ldredis_flush(context) == Int32(LDREDIS_OK.rawValue) else {
            throw .connectionLost(address: address, reason: errorText)
        }
    }

    /// Reads what the socket has; call when `poll` says it is readable. EOF is an error.
    func readAvailable() throws(RedisError) {
        guard ldredis_read(context) == Int32(LDREDIS_OK.rawValue) else {
            throw .connectionLost(address: address, reason: errorText)
        }
    }

    /// The next reply already read, or `nil` if none is complete yet.
    func nextReply() throws(RedisError) -> RedisReply? {
        var reply: UnsafeMutablePointer<redisReply>?
        guard ldredis_next_reply(context, &reply) == Int32(LDREDIS_OK.rawValue) else {
            throw .protocolError(errorText)
        }
        guard let reply else { return nil }
        defer { ldredis_free_reply(reply) }
        return try RedisReply(copying: reply)
    }

    private func handshake(_ url: RedisURL, selectDatabase: Bool) throws(RedisError) {
        if let password = url.password {
            var auth = [Array("AUTH".utf8)]
            if let user = url.username { auth.append(Array(user.utf8)) }
            auth.append(Array(password.utf8))
            if case .error(let message) = try command(auth) {
                throw .handshakeFailed(address: address, reason: message)
            }
        }
        if selectDatabase, url.database != 0,
           case .error(let message) = try command([Array("SELECT".utf8), Array(String(url.database).utf8)]) {
            throw .handshakeFailed(address: address, reason: "SELECT \(url.database): \(message)")
        }
    }

    /// Calls `body` with C views of `arguments`: pointers and lengths that live for the call.
    private static func withArgv<T>(_ arguments: [[UInt8]],
                                    _ body: (Int32, UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> T)
        -> Result<T, RedisError> {
        guard !arguments.isEmpty else { return .failure(.badCommand("no arguments")) }
        guard let argc = Int32(exactly: arguments.count) else { return .failure(.badCommand("too many arguments")) }
        // One buffer for all bytes (a pointer into an empty argument must still be valid).
        var total = 0
        for argument in arguments {
            let (sum, overflow) = total.addingReportingOverflow(argument.count)
            guard !overflow else { return .failure(.badCommand("arguments too large")) }
            total = sum
        }
        var storage = [UInt8]()
        storage.reserveCapacity(max(total, 1))
        for argument in arguments { storage.append(contentsOf: argument) }
        if storage.isEmpty { storage.append(0) }
        let lengths = arguments.map(\.count)
        return storage.withUnsafeBufferPointer { bytes in
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(arguments.count)
            var offset = 0
            for length in lengths {
                pointers.append(base + offset)
                offset += length   // cannot overflow: the sum was checked above
            }
            return pointers.withUnsafeMutableBufferPointer { argv in
                lengths.withUnsafeBufferPointer { .success(body(argc, argv.baseAddress!, $0.baseAddress!)) }
            }
        }
    }
}
