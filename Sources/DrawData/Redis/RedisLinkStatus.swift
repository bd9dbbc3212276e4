import Foundation

/// The state of a link to Redis, as `/healthz` and `/metrics` will show it.
public enum RedisLinkState: String, Sendable, Hashable {
    /// Trying to connect (first time, or again after a loss).
    case connecting
    /// Connected and logged in (and, for the subscriber, its subscriptions sent).
    case up
    /// Not connected; waiting before the next attempt.
    case down
}

/// An observable link state: read it from any thread, or be told of each change.
///
/// The owner of the connection is the only writer (`set`). Observers are called on the writer's
/// thread, after the lock is released, in order of changes; keep them short (post elsewhere).
public final class RedisLinkStatus: @unchecked Sendable {
    // @unchecked Sendable: every field is guarded by `lock`.
    private let lock = NSLock()
    private var current: RedisLinkState = .down
    private var error: String?
    private var transitionsToUp = 0
    private var observers: [@Sendable (RedisLinkState) -> Void] = []

    public init() {}

    /// The state now.
    public var state: RedisLinkState { lock.withLock { current } }

    /// The last error seen: why the link last went down, or a command Redis refused on it (a
    /// subscription the ACL forbids). Never holds the password; `nil` if there was none.
    public var lastError: String? { lock.withLock { error } }

    /// How many times the link came up; above 1 means it reconnected.
    public var upCount: Int { lock.withLock { transitionsToUp } }

    /// Calls `observer` on every later change.
    public func observe(_ observer: @escaping @Sendable (RedisLinkState) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Records a new state (the connection's owner only). Repeats are not reported again.
    func set(_ state: RedisLinkState, error reason: String? = nil) {
        let toCall: [@Sendable (RedisLinkState) -> Void] = lock.withLock {
            if let reason { error = reason }
            guard current != state else { return [] }
            current = state
            if state == .up { transitionsToUp += 1 }
            return observers
        }
        for observer in toCall { observer(state) }
    }
}
