/// Which watched rooms have gone quiet long enough to owe their viewers a `heartbeat` message.
/// Pure (times are passed in); the server feeds it every broadcast and asks it on its 100 ms
/// housekeeping tick.
///
/// Why heartbeats: a browser cannot see WebSocket pings, so a page behind a silently dead link (a
/// dead NAT, a phone out of signal) would keep showing a live draw. With a heartbeat it always
/// hears *something* within `interval` plus one tick, and treats longer silence as a lost
/// connection (docs/PROTOCOL.md, `heartbeat`).
///
/// Why an order and not a scan (issue 17): the rooms wait in last-broadcast order (`DeadlineOrder`), so
/// a broadcast costs O(1) and a tick takes the due rooms off the front and stops at the first
/// that is not due. Scanning every room on every tick cost 1,900 rooms' worth of work ten times a
/// second on the service thread, draw or no draw.
///
/// Cheap at any crowd size: it is per room, not per viewer. A room that broadcasts (a round, a
/// `presence`, an earlier heartbeat) is put back at the end, so a running draw sends no extra
/// messages; a quiet room sends one message through its normal broadcast path, stored once in its
/// ring and shared by every viewer.
struct RoomHeartbeat {
    /// Silence (no broadcast) after which a heartbeat is due; 0 turns heartbeats off.
    var intervalNanos: UInt64 { quiet.afterNanos }
    /// Watched rooms by name, the longest quiet first (armed at each broadcast).
    private var quiet: DeadlineOrder<String>

    init(intervalSeconds: Int) {
        quiet = DeadlineOrder(afterNanos: Nanoseconds.seconds(intervalSeconds))
    }

    /// How many rooms are watched.
    var count: Int { quiet.count }

    /// Whether `room` is watched.
    func isWatched(_ room: String) -> Bool { quiet.contains(room) }

    /// `room` broadcast (or got its first viewer) at `nowNanos`: its next heartbeat is due a full
    /// interval from then. O(1).
    mutating func heard(_ room: String, nowNanos: UInt64) {
        guard intervalNanos > 0 else { return }
        quiet.arm(room, nowNanos: nowNanos)
    }

    /// `room` has no viewers any more (or is gone): it owes nobody a heartbeat. O(1).
    mutating func forget(_ room: String) {
        quiet.disarm(room)
    }

    /// The longest-quiet room if its heartbeat is due at `nowNanos`, taken out of the order (a
    /// heartbeat sent puts it back through `heard`); nil when none is due.
    mutating func popDue(nowNanos: UInt64) -> String? {
        quiet.popDue(nowNanos: nowNanos)
    }
}
