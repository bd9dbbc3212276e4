/// The deadline of an upload's body once its head was accepted (issue 31, finding 5): one that
/// follows the body's progress instead of a fixed time for the whole request. The front door's
/// 5 s deadline for a whole request made the advertised 16 MiB unreachable below about
/// 27 Mbit/s; a fixed longer one would let a trickle hold an upload slot as long. So a body must
/// keep arriving at `minBytesPerSecond` on average over every `windowNanos` (a tumbling window:
/// each check that closes a window compares the bytes it brought with what the rate asks), and
/// be complete within `capNanos` whatever its rate. Pure: the caller passes the monotonic time,
/// so tests drive it without sleeping.
struct UploadPace: Equatable {
    /// 64 KiB/s (512 kbit/s): a slow mobile link still sends 16 MiB in about 4 minutes, and a
    /// client that sends a byte every half second (the attack) is cut off at the end of
    /// its first window.
    static let minBytesPerSecond = 64 * 1024
    /// 5 s: long enough for a client's own stalls (a TCP retransmission, a paused sender) to even
    /// out, short enough that a trickle holds a slot for seconds, not minutes. The first window
    /// starts when the head is accepted (and `100 Continue` sent), so it covers a round trip.
    static let windowNanos: UInt64 = 5_000_000_000
    /// 300 s: a 16 MiB body at exactly the minimum rate takes 256 s; past this, however fast the
    /// body still comes, the request ends.
    static let capNanos: UInt64 = 300_000_000_000

    enum Verdict: Equatable {
        case onPace
        /// The last window brought fewer bytes than the minimum rate asks.
        case tooSlow
        /// Past `capNanos` since the head was accepted.
        case tooLong
    }

    let minBytesPerSecond: Int
    let windowNanos: UInt64
    let capNanos: UInt64
    let start: UInt64
    private var windowStart: UInt64
    private var windowStartBytes: Int

    /// `bytes`: the body's bytes already in at `now` (those that came with the head).
    init(bytes: Int, at now: UInt64, minBytesPerSecond: Int = Self.minBytesPerSecond,
         windowNanos: UInt64 = Self.windowNanos, capNanos: UInt64 = Self.capNanos) {
        self.minBytesPerSecond = minBytesPerSecond
        self.windowNanos = max(1, windowNanos)
        self.capNanos = capNanos
        start = now
        windowStart = now
        windowStartBytes = bytes
    }

    /// Whether a body with `bytes` in at `now` may go on. Call it at least once a window.
    mutating func check(bytes: Int, at now: UInt64) -> Verdict {
        guard now >= windowStart else { return .onPace } // never trust a clock to trap
        if now - start >= capNanos { return .tooLong }
        let elapsed = now - windowStart
        guard elapsed >= windowNanos else { return .onPace }
        // Bytes the rate asks for over this window (floating point: no overflow, exact enough).
        let asked = Double(minBytesPerSecond) * Double(elapsed) / 1_000_000_000
        guard Double(bytes - windowStartBytes) >= asked else { return .tooSlow }
        windowStart = now
        windowStartBytes = bytes
        return .onPace
    }
}

/// How many upload bodies the front door reads at once (issue 31, finding 1): the server's
/// slots, and shares of them per address and per room, so that one client (or one room's host)
/// cannot hold every slot. Only uploads whose room and key were checked take one.
struct UploadSlots: Equatable {
    /// Four bodies of up to 16 MiB: what the server holds at most in upload bodies being read.
    var total = 4
    /// Two per address (an IPv6 /64 counts as one, see `PeerAddress`): one address never holds
    /// more than half of them.
    var perAddress = 2
    /// One per room: a room takes one change at a time anyway (a second one is refused with 409
    /// once it arrives), so a second body for the same room would be read for nothing.
    var perRoom = 1

    /// Whether one more upload from `peer` to `room` fits beside `reading` (the uploads being
    /// read now, each with its peer and room).
    func admits(peer: PeerAddress?, room: String, beside reading: some Sequence<(peer: PeerAddress?, room: String)>) -> Bool {
        var all = 0, fromPeer = 0, toRoom = 0
        for other in reading {
            all += 1
            if let peer, other.peer == peer { fromPeer += 1 }
            if other.room == room { toRoom += 1 }
        }
        return all < total && fromPeer < perAddress && toRoom < perRoom
    }
}
