import Foundation

/// A blocking connection for commands: one command at a time, each waiting for its reply.
///
/// Safe to call from any thread (a lock serialises the commands), but every call blocks for up
/// to the command timeout, so call it from a thread that may wait (like the storage thread),
/// never from the service thread.
///
/// Connects on the first command, and again on the first command after the connection broke.
/// Before each command an open connection is checked: one the server has closed (Redis
/// restarted: its FIN is already on the socket) is replaced at once, however recently it was
/// used, and one idle for more than `idleCheck` is also checked with a `PING` (a peer gone
/// without closing). So a command is not the one that finds the connection dead (issue 27: a
/// joining viewer was closed because the first read after an empty restart failed). A command
/// cut off mid-way is sent again only if the caller says it is `idempotent` (it may have run).
/// While Redis is unreachable, commands fail at once with `unavailable` until the backoff delay
/// has passed, so callers (a draw being refused with 503) do not each wait for a connect timeout.
public final class RedisConnection: @unchecked Sendable {
    // @unchecked Sendable: `context`, `failures` and `retryAt` are guarded by `lock`.
    public let configuration: RedisConfiguration
    /// Up after a command got through; down after a failure; connecting while it tries.
    public let link = RedisLinkStatus()

    private let lock = NSLock()
    private var context: RedisContext?
    private var failures = 0
    private var retryAt: ContinuousClock.Instant?
    private var closed = false
    /// When the last command got its reply (lock held).
    private var lastReply: ContinuousClock.Instant?
    /// How long a connection may sit idle before it is checked first.
    let idleCheck: Duration
    /// Set by `retryNow` (its own lock: `lock` may be held through a command's timeout).
    private let hintLock = NSLock()
    private var retryHint = false

    /// `idleCheck`: how long the connection may sit idle before a command checks it with a
    /// `PING` first.
    public init(configuration: RedisConfiguration, idleCheck: Duration = .seconds(1)) {
        self.configuration = configuration
        self.idleCheck = idleCheck
    }

    /// Sends one command (any bytes per argument) and returns its reply. An error reply is a
    /// `.error` value, not a throw; throws only when no reply came.
    ///
    /// `idempotent`: the command may safely run twice (a read, or a write that sets the same
    /// value again). Such a command that is cut off on a connection that was already open is
    /// sent once more on a fresh connection; others throw `connectionLost`, since they may have
    /// run. A connection the server already closed is never used: that is checked before sending.
    public func command(_ arguments: [[UInt8]], idempotent: Bool = false) throws(RedisError) -> RedisReply {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { throw .closed }
        let reused = context != nil
        var context = try connected()
        if reused, stale(context) {
            // Dead while unused (Redis restarted or the link dropped): a fresh one, at once.
            self.context = nil
            context = try connected()
        }
        do throws(RedisError) {
            return try send(arguments, on: context)
        } catch .connectionLost(_, _) where idempotent && reused {
            // The stream broke between the check and the reply (Redis went away just then): a
            // read may simply be asked again on a new connection, once.
            return try send(arguments, on: connected())
        }
    }

    /// Whether an open context must be replaced before a command: the server has closed it
    /// (seen at once, without a round trip), or it sat idle past `idleCheck` and a PING fails (a
    /// peer gone without closing). Lock held.
    private func stale(_ context: RedisContext) -> Bool {
        if context.peerHasClosed { return true }
        guard let last = lastReply, ContinuousClock.now - last > idleCheck else { return false }
        return (try? context.command([Array("PING".utf8)])) == nil
    }

    /// One command on `context`; a failure drops it. Lock held.
    private func send(_ arguments: [[UInt8]], on context: RedisContext) throws(RedisError) -> RedisReply {
        do {
            let reply = try context.command(arguments)
            lastReply = ContinuousClock.now
            return reply
        } catch {
            // The stream is out of step (or gone): never reuse it. No backoff yet: the next
            // command simply reconnects; a refused reconnect starts the backoff.
            self.context = nil
            link.set(.down, error: error.description)
            throw error
        }
    }

    /// `command` with text arguments (UTF-8).
    public func command(_ arguments: String...) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }


    /// Ends a backoff wait: the next command tries to connect at once. For when another link to
    /// the same Redis (a subscriber's) has just come back up, so commands need not keep failing
    /// for up to the backoff's cap after Redis returned. Any thread; never blocks.
    public func retryNow() {
        hintLock.withLock { retryHint = true }
    }

    /// Drops the connection; later commands throw `closed`.
    public func close() {
        lock.withLock {
            closed = true
            context = nil
        }
        link.set(.down)
    }

    /// The open context, connecting first if there is none and the backoff allows. Lock held.
    private func connected() throws(RedisError) -> RedisContext {
        if let context { return context }
        if hintLock.withLock({ () -> Bool in defer { retryHint = false }; return retryHint }) { retryAt = nil }
        let now = ContinuousClock.now
        if let retryAt, now < retryAt {
            let ms = (retryAt - now).components
            throw .unavailable(address: "\(configuration.url.host):\(configuration.url.port)",
                               retryInMs: Int(ms.seconds * 1000 + ms.attoseconds / 1_000_000_000_000_000))
        }
        link.set(.connecting)
        do {
            let fresh = try RedisContext(url: configuration.url, connectTimeoutMs: configuration.connectTimeoutMs,
                                         commandTimeoutMs: configuration.commandTimeoutMs)
            context = fresh
            failures = 0
            retryAt = nil
            link.set(.up)
            return fresh
        } catch {
            noteFailure(error)
            throw error
        }
    }

    /// A connect attempt failed: wait before the next.
    private func noteFailure(_ error: RedisError) {
        failures = min(failures + 1, 64)
        retryAt = ContinuousClock.now + .milliseconds(configuration.backoff.delayMs(afterFailures: failures))
        link.set(.down, error: error.description)
    }
}
