/// Which WebSocket clients have been silent too long: those now owed a ping, and those to let go
/// because a ping brought nothing back. Every operation is O(1) but `sweep`, which looks only at
/// the clients it returns.
///
/// Why not lws' own idle policy (`secs_since_valid_ping` / `_hangup`): lws 4.1 keeps every
/// connection's validity timer in the one sorted list of its timers and inserts by walking that
/// list from its head. A new or confirmed connection's timer is the latest of all, so each insert
/// walks every connection: O(connections) per join and per pong, O(n²) for a join storm or a ping
/// wave. Measured (issue 17): 43% of the server's CPU during a join storm of 10,000, and the wave
/// of pings and pongs idle-ping seconds after a storm is what made scenario b2's bad runs.
///
/// Every deadline is "a time + a fixed interval": last heard + the ping interval for the quiet,
/// pinged at + the answer time for the pinged. So the order in which clients were last heard (or
/// pinged) is the order of their deadlines: two linked lists in those orders (`LRUOrder`) give
/// O(1) for "heard", and the sweep takes from their oldest ends only while something is due.
///
/// A client is never let go without having been pinged and given the answer time
/// (`hangUpAfterNanos - pingAfterNanos`) from the ping: after a stall of the service thread (or
/// a suspended machine) a sweep may find clients silent past both intervals whose frames are
/// only waiting to be read; they are pinged, not dropped.
///
/// A pure value: times are the caller's (monotonic nanoseconds), so tests drive it without a
/// clock or sockets.
struct IdleTracker<Key: Hashable> {
    /// Silence after which a client is sent a ping.
    let pingAfterNanos: UInt64
    /// Silence after which a client is let go, when the sweeps come on time: a ping goes out at
    /// `pingAfterNanos`, and the client then has the rest (at least one nanosecond) to answer.
    let hangUpAfterNanos: UInt64

    /// Not pinged since last heard, least recently heard first.
    private var quiet = LRUOrder<Key>()
    /// Pinged and not heard since, in the order they were pinged.
    private var pinged = LRUOrder<Key>()
    /// For a quiet client, when it was last heard; for a pinged one, when it was pinged.
    private var since: [Key: UInt64] = [:]

    init(pingAfterNanos: UInt64, hangUpAfterNanos: UInt64) {
        self.pingAfterNanos = pingAfterNanos
        self.hangUpAfterNanos = hangUpAfterNanos
    }

    /// How long a pinged client has to answer.
    var answerNanos: UInt64 { hangUpAfterNanos > pingAfterNanos ? hangUpAfterNanos - pingAfterNanos : 1 }

    /// What a sweep found due.
    struct Due: Equatable {
        /// Clients silent for `pingAfterNanos`: send each a ping (once; they are not listed again
        /// until heard and silent again).
        var ping: [Key] = []
        /// Clients that did not answer a ping within the answer time: let them go. They are no
        /// longer tracked.
        var hangUp: [Key] = []
    }

    /// Clients tracked.
    var count: Int { since.count }

    /// Whether `key` has been pinged and not heard since.
    func isPinged(_ key: Key) -> Bool { pinged.contains(key) }

    /// The client was heard at `now` (it connected, or a valid frame arrived): starts or
    /// restarts its silence.
    mutating func heard(_ key: Key, at now: UInt64) {
        since[key] = now
        pinged.remove(key)
        quiet.touch(key)
    }

    /// Stops tracking `key` (it closed).
    mutating func forget(_ key: Key) {
        guard since.removeValue(forKey: key) != nil else { return }
        quiet.remove(key)
        pinged.remove(key)
    }

    /// Takes out what is due at `now`: first the pinged that did not answer in time, then the
    /// quiet ones now owed a ping (pinged at `now`).
    mutating func sweep(at now: UInt64) -> Due {
        var due = Due()
        while let key = pinged.oldest, elapsed(since: since[key], to: now) >= answerNanos {
            forget(key)
            due.hangUp.append(key)
        }
        while let key = quiet.oldest, elapsed(since: since[key], to: now) >= pingAfterNanos {
            quiet.remove(key)
            since[key] = now
            // Pinged in the order of the sweeps, so `pinged` stays in order of its deadlines.
            pinged.touch(key)
            due.ping.append(key)
        }
        return due
    }

    /// Time from `start` to `now`; 0 for a start after `now` (the caller's clock is monotonic,
    /// so only a caller's mistake gets here, and it must not trap).
    private func elapsed(since start: UInt64?, to now: UInt64) -> UInt64 {
        guard let start, now > start else { return 0 }
        return now - start
    }
}
