/// When a room that has gone quiet owes its viewers a `heartbeat` message. Pure: the server's
/// housekeeping tick asks it every 100 ms per watched room, with the room's broadcast position
/// (rooms that fell quiet at different instants then send in different ticks, not all at once).
///
/// Why: a browser cannot see WebSocket pings, so a page behind a silently dead link (a dead NAT,
/// a phone out of signal) would keep showing a live draw. With a heartbeat it always hears
/// *something* within `interval` plus one tick, and treats longer silence as a lost connection
/// (docs/PROTOCOL.md, `heartbeat`).
///
/// Cheap at any crowd size: it is per room, not per viewer. A room whose broadcast ring moved
/// (a round, a `presence`, an earlier heartbeat) needs none, so a running draw sends no extra
/// messages; a quiet room sends one message through its normal broadcast path, stored once in
/// its ring and shared by every viewer.
struct RoomHeartbeat: Sendable {
    /// What the policy remembers per room: the ring position it last saw, and since when (the
    /// tick that first saw it) the position has not moved.
    struct Quiet: Sendable, Equatable {
        var seq: UInt64
        var sinceNanos: UInt64
    }

    /// Silence (no broadcast) after which a heartbeat is due; 0 turns heartbeats off.
    let intervalNanos: UInt64

    init(intervalSeconds: Int) {
        intervalNanos = UInt64(clamping: max(0, intervalSeconds)).multipliedReportingOverflow(by: 1_000_000_000).partialValue
    }

    /// True when the room whose ring is at `seq` must send a heartbeat now. Updates `quiet`: a
    /// moved ring restarts the quiet time (measured from this tick, so the gap a viewer sees is
    /// below `interval` plus the tick's period); a heartbeat sent moves the ring itself.
    func isDue(_ quiet: inout Quiet?, seq: UInt64, nowNanos: UInt64) -> Bool {
        guard intervalNanos > 0 else { return false }
        guard let q = quiet, q.seq == seq else {
            quiet = Quiet(seq: seq, sinceNanos: nowNanos)
            return false
        }
        // A clock that went backwards (it is monotonic; defensive) counts as no time passed.
        return nowNanos >= q.sinceNanos && nowNanos - q.sinceNanos >= intervalNanos
    }

    /// Records that a heartbeat went out and the ring is now at `seq`: the next one is due a
    /// full interval from now, not from the tick that notices the moved ring.
    func sent(_ quiet: inout Quiet?, seq: UInt64, nowNanos: UInt64) {
        quiet = Quiet(seq: seq, sinceNanos: nowNanos)
    }
}
