#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The subscriber thread: connect, keep the subscriptions in step, read, reconnect.
/// Everything here runs on that thread only.
extension RedisSubscriber {
    func run() {
        var failures = 0
        while !isStopping {
            let wake: WakePipe
            do throws(WakePipe.Failure) { wake = try wakePipe() } catch {
                // Out of descriptors, most likely: no connection could be made either. Said on
                // the link (`/healthz`, the cluster's log) and tried again, never a crash.
                link.set(.down, error: error.description)
                failures = min(failures + 1, 64)
                sleep(milliseconds: configuration.backoff.delayMs(afterFailures: failures), wake: nil)
                continue
            }
            link.set(.connecting)
            do {
                // No SELECT: pub/sub channels are not scoped by database in Redis.
                let context = try RedisContext(url: configuration.url, connectTimeoutMs: configuration.connectTimeoutMs,
                                               commandTimeoutMs: configuration.commandTimeoutMs, selectDatabase: false)
                failures = 0
                link.set(.up)
                try serve(context, wake: wake)
            } catch {
                lock.withLock { confirmed.removeAll() }
                link.set(.down, error: error.description)
                failures = min(failures + 1, 64)
                sleep(milliseconds: configuration.backoff.delayMs(afterFailures: failures), wake: wake)
            }
        }
        lock.withLock { confirmed.removeAll() }
        link.set(.down)
    }

    /// Serves one connection until `stop` (returns) or a lost link (throws).
    private func serve(_ context: RedisContext, wake: WakePipe) throws(RedisError) {
        var sent: Set<String> = []
        let ping = Duration.milliseconds(configuration.pingIntervalMs)
        let patience = ping + .milliseconds(configuration.commandTimeoutMs)
        var lastHeard = ContinuousClock.now
        var pingSentAt: ContinuousClock.Instant?
        while true {
            let target: Set<String>? = lock.withLock { stopping ? nil : wanted }
            guard let target else { return }
            let added = target.subtracting(sent).sorted()
            let removed = sent.subtracting(target).sorted()
            if !added.isEmpty { try context.append([Array("SUBSCRIBE".utf8)] + added.map { Array($0.utf8) }) }
            if !removed.isEmpty { try context.append([Array("UNSUBSCRIBE".utf8)] + removed.map { Array($0.utf8) }) }
            sent = target

            let now = ContinuousClock.now
            if let pingSentAt, now - pingSentAt > patience {
                throw .connectionLost(address: context.address, reason: "no reply to PING within \(patience)")
            }
            if pingSentAt == nil, now - lastHeard >= ping {
                try context.append([Array("PING".utf8)])
                pingSentAt = now
            }
            try context.flush()

            let deadline = pingSentAt.map { $0 + patience } ?? lastHeard + ping
            let redisReady = waitReadable(context.fd, wake: wake, until: deadline)
            guard redisReady else { continue }
            try context.readAvailable()
            lastHeard = ContinuousClock.now
            pingSentAt = nil   // any bytes prove the link alive
            while let reply = try context.nextReply() { handle(reply) }
        }
    }

    /// One reply on a subscribed connection (RESP2 pushes are arrays).
    private func handle(_ reply: RedisReply) {
        guard case .array(let parts) = reply, parts.count >= 2,
              let kind = parts[0].text else {
            if case .error(let message) = reply { link.set(.up, error: "Redis refused a subscription command: \(message)") }
            return   // +PONG outside subscribed mode, or something we did not ask for
        }
        guard let channel = parts[1].text else { return }
        switch kind {
        case "message":
            guard parts.count == 3, case .string(let payload) = parts[2] else { return }
            guard lock.withLock({ wanted.contains(channel) }) else { return }
            onMessage(channel, payload)
        case "subscribe":
            let observers = lock.withLock {
                _ = confirmed.insert(channel)
                return confirmationObservers
            }
            for observer in observers { observer(channel) }
        case "unsubscribe":
            lock.withLock { _ = confirmed.remove(channel) }
        default:
            break   // "pong"
        }
    }

    /// Waits until the Redis socket is readable, the wake pipe is signalled (drained here), or
    /// `deadline`. Returns whether Redis is readable (an error or hang-up counts: the read will report it).
    private func waitReadable(_ redisFD: Int32, wake: WakePipe, until deadline: ContinuousClock.Instant) -> Bool {
        var fds = [pollfd(fd: redisFD, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)]
        let result = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, 2, Self.timeoutMs(until: deadline)) }
        guard result > 0 else { return false }   // timeout, or EINTR: loop and look again
        if fds[1].revents != 0 { wake.drain() }
        return fds[0].revents != 0
    }

    /// Sleeps for the backoff delay, or less if `stop` wakes the thread; without a `wake` pipe,
    /// in slices of 50 ms, so a `stop` is still seen soon.
    private func sleep(milliseconds: Int, wake: WakePipe?) {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while !isStopping, ContinuousClock.now < deadline {
            guard let wake else {
                _ = poll(nil, 0, min(50, Self.timeoutMs(until: deadline)))
                continue
            }
            var fd = pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Self.timeoutMs(until: deadline)) > 0 { wake.drain() }
        }
    }

    /// Milliseconds from now to `deadline`, rounded up, at least 0, at most a minute.
    private static func timeoutMs(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        let parts = left.components
        let ms = min(parts.seconds, 60) * 1000 + (parts.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(ms, 60_000))
    }
}
