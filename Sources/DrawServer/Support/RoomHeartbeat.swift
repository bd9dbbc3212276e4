/// Which watched rooms have gone quiet long enough to owe their viewers a `heartbeat` message.
/// Pure (times are passed in); the server feeds it every broadcast and asks it on its 100 ms
/// housekeeping tick.
///
/// Why heartbeats: a browser cannot see WebSocket pings, so a page behind a silently dead link (a
/// dead NAT, a phone out of signal) would keep showing a live draw. With a heartbeat it always
/// hears *something* within `interval` plus one tick (plus at most `drainNanos` when many rooms
/// fell quiet together, see `takeDue`), and treats longer silence as a lost connection
/// (docs/PROTOCOL.md, `heartbeat`).
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

    /// The due rooms one tick may serve, longest quiet first, taken out of the order: rooms are
    /// taken until their viewers add up to `writeBudget` (always at least one room, however
    /// large). The rest stay due at the front for the next tick. `viewers` gives a room's viewers,
    /// or nil for a room that emptied or went since it was heard, which is dropped at no cost.
    ///
    /// Why a budget (issue 17, scenario b2): rooms whose draws ended together fall quiet together,
    /// and one tick that found 600 of them due sent 6,000 heartbeats in one turn, 70 ms during
    /// which every other room's round timer waited. A heartbeat a few ticks late costs nothing (a
    /// page tolerates three missed ones); a late round is what viewers see.
    mutating func takeDue(nowNanos: UInt64, writeBudget: Int, viewers: (String) -> Int?) -> [String] {
        var taken: [String] = []
        var writes = 0
        while writes < writeBudget, let room = quiet.popDue(nowNanos: nowNanos) {
            guard let n = viewers(room) else { continue }
            taken.append(room)
            let (sum, overflow) = writes.addingReportingOverflow(max(0, n))
            writes = overflow ? Int.max : sum
        }
        return taken
    }

    /// How long a backlog of heartbeats may take to drain, at most: a whole server's viewers whose
    /// rooms all fell quiet in the same instant get theirs within this (or within one interval,
    /// when that is shorter), so a page hears something at least every interval + 2 s plus one
    /// tick, inside the three intervals a client waits before it gives up (docs/PROTOCOL.md).
    static let drainNanos: UInt64 = 2_000_000_000

    /// The heartbeats one tick may write: enough that `connections` viewers' worth drains within
    /// `drainNanos` (or the interval, if shorter), and never fewer than `minimumWrites` (about
    /// 3 ms of sends here). Overflow-safe at any input.
    static func writeBudget(connections: Int, tickNanos: UInt64, intervalNanos: UInt64,
                            minimumWrites: Int = 256) -> Int {
        let drain = min(intervalNanos, drainNanos)
        guard drain > 0, connections > 0 else { return minimumWrites }
        let perTick = (Double(connections) * Double(tickNanos) / Double(drain)).rounded(.up)
        return perTick >= Double(Int.max / 2) ? Int.max : max(minimumWrites, Int(perTick))
    }
}
