import CHiredisShim
import Dispatch
import Foundation

/// A pub/sub connection to Redis, run by one thread of its own ("ld-redis-sub").
///
/// Why its own thread: a subscribed connection only listens, and hiredis' blocking API reads on
/// the calling thread. The thread waits in `poll` on the Redis socket and a `WakePipe`, so it
/// sleeps when nothing happens and wakes at once for a message, a (un)subscribe or `stop`.
///
/// What is wanted and what is confirmed are kept apart: `subscribe`/`unsubscribe` (any thread)
/// change the wanted set under `lock` and wake the thread, which sends the difference to Redis;
/// `subscribedChannels` is what Redis confirmed on the current connection. After a lost link the
/// thread reconnects with `ReconnectBackoff` (bounded by `maxMs`) and subscribes the whole wanted
/// set again, so callers never resubscribe themselves. Messages for a channel no longer wanted
/// (in flight while the UNSUBSCRIBE was) are dropped. The thread makes its `WakePipe` before
/// connecting; when it cannot (`EMFILE`), the link is down with that error and it tries again
/// after the backoff, as for a lost link (waking every 50 ms meanwhile to see a `stop`).
///
/// Messages go to `onMessage` on the subscriber thread, in the order Redis sent them; keep it
/// short (post elsewhere). A silent network drop is noticed by pinging an idle link
/// (`pingIntervalMs`). Call `stop()` before dropping the subscriber: the thread holds it.
public final class RedisSubscriber: @unchecked Sendable {
    // @unchecked Sendable: `wanted`, `confirmed`, `stopping`, `started` and `pipe` are guarded by `lock`;
    // `loop` state is the thread's own; the rest is immutable.

    /// The thread's name.
    public static let threadName = "ld-redis-sub"

    public let configuration: RedisConfiguration
    /// Up once connected and logged in; `subscribedChannels` says which subscriptions Redis confirmed.
    public let link = RedisLinkStatus()

    let onMessage: @Sendable (_ channel: String, _ payload: [UInt8]) -> Void
    /// Makes the thread's wake pipe (`WakePipe.init`; tests pass one that fails).
    let makeWakePipe: () throws(WakePipe.Failure) -> WakePipe
    /// The wake pipe, once the thread made it.
    private var pipe: WakePipe?
    let lock = NSLock()
    var wanted: Set<String> = []
    var confirmed: Set<String> = []
    /// Told of every subscription Redis confirms (`observeConfirmations`).
    var confirmationObservers: [@Sendable (_ channel: String) -> Void] = []
    var stopping = false
    private var started = false
    let finished = DispatchSemaphore(value: 0)
    /// The subscriber thread, set when it starts (to refuse `stop()` from inside `onMessage`).
    var threadID: pthread_t?

    public convenience init(configuration: RedisConfiguration,
                            onMessage: @escaping @Sendable (_ channel: String, _ payload: [UInt8]) -> Void) {
        self.init(configuration: configuration, makeWakePipe: { () throws(WakePipe.Failure) in try WakePipe() },
                  onMessage: onMessage)
    }

    init(configuration: RedisConfiguration, makeWakePipe: @escaping () throws(WakePipe.Failure) -> WakePipe,
         onMessage: @escaping @Sendable (_ channel: String, _ payload: [UInt8]) -> Void) {
        self.configuration = configuration
        self.makeWakePipe = makeWakePipe
        self.onMessage = onMessage
    }

    /// Starts the thread (once). Subscriptions made before are sent on the first connection.
    public func start() {
        let first = lock.withLock { () -> Bool in
            defer { started = true }
            return !started && !stopping
        }
        guard first else { return }
        let thread = Thread { [self] in
            // Named from inside as well: see ldredis_name_thread for why `thread.name` is not enough.
            _ = ldredis_name_thread(Self.threadName)
            lock.withLock { threadID = pthread_self() }
            run()
            finished.signal()
        }
        thread.name = Self.threadName
        thread.start()
    }

    /// Stops the thread and closes the connection; returns when the thread has ended. Must not be
    /// called from `onMessage` (the thread would wait for itself).
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            if let threadID { precondition(pthread_equal(threadID, pthread_self()) == 0, "stop() from the subscriber thread") }
            defer { stopping = true }
            return started && !stopping
        }
        guard wasRunning else { return }
        signal()
        finished.wait()
    }

    /// Asks for messages of `channel` (any thread; takes effect once Redis confirms).
    public func subscribe(_ channel: String) {
        let changed = lock.withLock { wanted.insert(channel).inserted }
        if changed { signal() }
    }

    /// Stops messages of `channel` (any thread). A message already being handed to `onMessage`
    /// may still arrive; none read after this returns is delivered.
    public func unsubscribe(_ channel: String) {
        let changed = lock.withLock { wanted.remove(channel) != nil }
        if changed { signal() }
    }

    /// Calls `observer` on the subscriber thread each time Redis confirms a subscription (also
    /// again after a reconnect), so a caller waiting for one needs no polling. Any thread.
    public func observeConfirmations(_ observer: @escaping @Sendable (_ channel: String) -> Void) {
        lock.withLock { confirmationObservers.append(observer) }
    }

    /// The channels Redis confirmed on the current connection (empty while down).
    public var subscribedChannels: Set<String> { lock.withLock { confirmed } }

    /// The channels asked for, confirmed or not.
    public var wantedChannels: Set<String> { lock.withLock { wanted } }

    var isStopping: Bool { lock.withLock { stopping } }

    /// Wakes the thread, if it has its pipe yet (without one it looks at `stopping` every 50 ms
    /// and sends the wanted set once connected).
    private func signal() {
        lock.withLock { pipe }?.signal()
    }

    /// The thread's wake pipe, made on first use (subscriber thread only).
    func wakePipe() throws(WakePipe.Failure) -> WakePipe {
        if let made = lock.withLock({ pipe }) { return made }
        let made = try makeWakePipe()
        lock.withLock { pipe = made }
        return made
    }
}
