/// Keys that each fall due a fixed time after they were last armed, kept in the order they fall
/// due. Pure (times are passed in); O(1) to arm, re-arm, disarm, and per key handed out.
///
/// Why not lws' timers or a scan: with one fixed delay, the key armed last is always due last,
/// so an `LRUOrder` is the deadline order, and the due keys are at its front. lws keeps its
/// timers in one list sorted by a walk from the head, which made every close deadline O(open
/// connections) and a shutdown of 10,000 viewers O(n²) (72% of its CPU); a scan of every key on
/// every tick (the heartbeats' first form) is O(keys) ten times a second. `IdleTracker`,
/// `RoomHeartbeat` and `CloseDeadlines` are built on it.
struct DeadlineOrder<Key: Hashable> {
    /// How long after being armed a key falls due.
    let afterNanos: UInt64
    /// Armed keys, the one due first at the front.
    private var order = LRUOrder<Key>()
    /// When each key in `order` was last armed (monotonic).
    private var armedAt: [Key: UInt64] = [:]

    init(afterNanos: UInt64) {
        self.afterNanos = afterNanos
    }

    /// How many keys are armed.
    var count: Int { order.count }

    /// Whether `key` is armed.
    func contains(_ key: Key) -> Bool { order.contains(key) }

    /// (Re-)arms `key`: it falls due `afterNanos` after `nowNanos`, after every key armed before.
    mutating func arm(_ key: Key, nowNanos: UInt64) {
        order.touch(key)
        armedAt[key] = nowNanos
    }

    /// Takes `key` out; it never falls due unless armed again.
    mutating func disarm(_ key: Key) {
        order.remove(key)
        armedAt[key] = nil
    }

    /// The key due first, taken out, if it is due at `nowNanos`; nil when none is. A clock that
    /// went backwards (it is monotonic; defensive) counts as no time passed.
    mutating func popDue(nowNanos: UInt64) -> Key? {
        guard let key = order.oldest, let armed = armedAt[key],
              nowNanos >= armed, nowNanos - armed >= afterNanos else { return nil }
        disarm(key)
        return key
    }
}
