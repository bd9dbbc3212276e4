import DrawTransport

/// With TLS: when each connection the front door handed to lws began its handshake, so that one
/// still in it after `limit` stops holding one of the `headerTables` places (`HandOverLine`,
/// `expireSlowTLS`). Service thread only.
struct TLSHandshakeClock {
    let limit: UInt64
    private var started: [Connection: UInt64] = [:]
    /// The same, in hand-over order: a connection settled or expired is skipped when it comes up
    /// (its time no longer matches, also when lws has reused its address for a newer one).
    private var order = FIFO<(Connection, UInt64)>()

    init(limit: UInt64) { self.limit = limit }

    mutating func began(_ wsi: Connection, at now: UInt64) {
        started[wsi] = now
        order.push((wsi, now))
    }

    /// It left the handshake (or the front door): no longer timed.
    mutating func ended(_ wsi: Connection) { started[wsi] = nil }

    /// Each connection in its handshake for `limit` or longer at `now`, once; it is no longer timed.
    mutating func expire(now: UInt64, _ each: (Connection) -> Void) {
        while let (wsi, began) = order.first, now &- began >= limit {
            _ = order.pop()
            guard started[wsi] == began else { continue }   // ended since (or a newer one)
            started[wsi] = nil
            each(wsi)
        }
    }

    /// When the oldest connection still in its handshake turns slow; nil: none is timed.
    mutating func nextDue() -> UInt64? {
        while let (wsi, began) = order.first, started[wsi] != began { _ = order.pop() }
        return order.first.map { $0.1 &+ limit }
    }
}
