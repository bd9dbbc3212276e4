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
/// Here every deadline is "last heard + a fixed interval", so the order in which clients were
/// last heard is the order of their deadlines: two linked lists in that order (`LRUOrder`) give
/// O(1) for "heard", and the sweep takes from the oldest end only while something is due.
///
/// A pure value: times are the caller's (monotonic nanoseconds), so tests drive it without a
/// clock or sockets.
struct IdleTracker<Key: Hashable> {
    /// Silence after which a client is sent a ping.
    let pingAfterNanos: UInt64
    /// Silence after which a client is let go (more than `pingAfterNanos`; a tracker built with
    /// less hangs up without pinging).
    let hangUpAfterNanos: UInt64

    /// Not pinged since last heard, least recently heard first.
    private var quiet = LRUOrder<Key>()
    /// Pinged and not heard since, in the order they were last heard (hence of their deadlines).
    private var pinged = LRUOrder<Key>()
    /// When each tracked client was last heard.
    private var lastHeard: [Key: UInt64] = [:]

    init(pingAfterNanos: UInt64, hangUpAfterNanos: UInt64) {
        self.pingAfterNanos = pingAfterNanos
        self.hangUpAfterNanos = hangUpAfterNanos
    }

    /// What a sweep found due.
    struct Due: Equatable {
        /// Clients silent for `pingAfterNanos`: send each a ping (once; they are not listed again
        /// until heard and silent again).
        var ping: [Key] = []
        /// Clients silent for `hangUpAfterNanos`: let them go. They are no longer tracked.
        var hangUp: [Key] = []
    }

    /// Clients tracked.
    var count: Int { lastHeard.count }

    /// Whether `key` has been pinged and not heard since.
    func isPinged(_ key: Key) -> Bool { pinged.contains(key) }

    /// The client was heard at `now` (it connected, or a valid frame arrived): starts or
    /// restarts its silence.
    mutating func heard(_ key: Key, at now: UInt64) {
        lastHeard[key] = now
        pinged.remove(key)
        quiet.touch(key)
    }

    /// Stops tracking `key` (it closed).
    mutating func forget(_ key: Key) {
        guard lastHeard.removeValue(forKey: key) != nil else { return }
        quiet.remove(key)
        pinged.remove(key)
    }

    /// Takes out what is due at `now`: hang-ups first (pinged, still silent), then pings. A client
    /// found past both intervals at once (a sweep came late) is hung up without a ping, as its
    /// time is up either way.
    mutating func sweep(at now: UInt64) -> Due {
        var due = Due()
        while let key = pinged.oldest, silence(of: key, at: now) >= hangUpAfterNanos {
            forget(key)
            due.hangUp.append(key)
        }
        while let key = quiet.oldest {
            let silent = silence(of: key, at: now)
            if silent >= hangUpAfterNanos {
                forget(key)
                due.hangUp.append(key)
            } else if silent >= pingAfterNanos {
                quiet.remove(key)
                // Popped from `quiet` in the order last heard, so `pinged` stays in that order.
                pinged.touch(key)
                due.ping.append(key)
            } else {
                break
            }
        }
        return due
    }

    /// How long `key` has been silent at `now`; 0 for a time before it was heard (the caller's
    /// clock is monotonic, so only a caller's mistake gets here, and it must not trap).
    private func silence(of key: Key, at now: UInt64) -> UInt64 {
        guard let heard = lastHeard[key], now > heard else { return 0 }
        return now - heard
    }
}
