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
/// pinged at + the answer time for the pinged. So each is a `DeadlineOrder`: O(1) for "heard",
/// and the sweep takes from their fronts only while something is due.
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
    var pingAfterNanos: UInt64 { quiet.afterNanos }
    /// Silence after which a client is let go, when the sweeps come on time: a ping goes out at
    /// `pingAfterNanos`, and the client then has the rest (at least one nanosecond) to answer.
    let hangUpAfterNanos: UInt64

    /// Not pinged since last heard, armed when heard.
    private var quiet: DeadlineOrder<Key>
    /// Pinged and not heard since, armed when pinged.
    private var pinged: DeadlineOrder<Key>

    init(pingAfterNanos: UInt64, hangUpAfterNanos: UInt64) {
        self.hangUpAfterNanos = hangUpAfterNanos
        quiet = DeadlineOrder(afterNanos: pingAfterNanos)
        pinged = DeadlineOrder(afterNanos: hangUpAfterNanos > pingAfterNanos ? hangUpAfterNanos - pingAfterNanos : 1)
    }

    /// How long a pinged client has to answer.
    var answerNanos: UInt64 { pinged.afterNanos }

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
    var count: Int { quiet.count + pinged.count }

    /// Whether `key` has been pinged and not heard since.
    func isPinged(_ key: Key) -> Bool { pinged.contains(key) }

    /// The client was heard at `now` (it connected, or a valid frame arrived): starts or
    /// restarts its silence.
    mutating func heard(_ key: Key, at now: UInt64) {
        pinged.disarm(key)
        quiet.arm(key, nowNanos: now)
    }

    /// Stops tracking `key` (it closed).
    mutating func forget(_ key: Key) {
        quiet.disarm(key)
        pinged.disarm(key)
    }

    /// Takes out what is due at `now`: first the pinged that did not answer in time, then the
    /// quiet ones now owed a ping (pinged at `now`, so `pinged` stays in the order of its
    /// deadlines). A time before a client was heard counts as no silence (`DeadlineOrder`).
    mutating func sweep(at now: UInt64) -> Due {
        var due = Due()
        while let key = pinged.popDue(nowNanos: now) { due.hangUp.append(key) }
        while let key = quiet.popDue(nowNanos: now) {
            pinged.arm(key, nowNanos: now)
            due.ping.append(key)
        }
        return due
    }
}
