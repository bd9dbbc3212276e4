import DrawTransport
/// Closing WebSocket clients and when each must be gone: a client that does not take its close
/// frame, or does not answer it, in time is dropped by the housekeeping tick. Service thread only.
///
/// Why ours and not lws' `lws_set_timeout`: lws inserts each timeout into one list sorted by a
/// walk from the head, and a close deadline is the latest of all, so every close walked every
/// pending timer; a shutdown of 10,000 viewers spent 72% of its CPU in that walk
/// (`lws_dll2_add_sorted`, issue 17). Here a deadline is O(1): the few delays in use (the close
/// frame's 5 s, the handshake's `--close-timeout-seconds`, the shutdown's grace) each keep their
/// clients in a `DeadlineOrder`.
///
/// Holds each closing client strongly until it is dropped or `forget` is called (lws reported it
/// closed): a client handed out by `popDue` has a live connection.
struct CloseDeadlines {
    /// Closing clients by identity, each with the delay of the order that holds it (a re-arm may
    /// change the delay).
    private var clients: [ObjectIdentifier: (client: ClientConnection, delayNanos: UInt64)] = [:]
    /// One order per delay in use.
    private var orders: [UInt64: DeadlineOrder<ObjectIdentifier>] = [:]

    /// How many clients have a deadline.
    var count: Int { clients.count }

    /// `client` must be gone `afterNanos` after `nowNanos`; replaces its earlier deadline.
    mutating func arm(_ client: ClientConnection, afterNanos: UInt64, nowNanos: UInt64) {
        let id = ObjectIdentifier(client)
        if let previous = clients[id]?.delayNanos, previous != afterNanos { orders[previous]?.disarm(id) }
        clients[id] = (client, afterNanos)
        orders[afterNanos, default: DeadlineOrder(afterNanos: afterNanos)].arm(id, nowNanos: nowNanos)
    }

    /// `client` closed (or is going without a deadline): it is never handed out.
    mutating func forget(_ client: ClientConnection) {
        let id = ObjectIdentifier(client)
        guard let entry = clients.removeValue(forKey: id) else { return }
        orders[entry.delayNanos]?.disarm(id)
    }

    /// Every client whose deadline has passed at `nowNanos`, taken out. Only the due ones are
    /// looked at; with no client closing, nothing is (this runs on every housekeeping tick).
    mutating func popDue(nowNanos: UInt64) -> [ClientConnection] {
        guard !clients.isEmpty else { return [] }
        var due: [ClientConnection] = []
        for delay in Array(orders.keys) {
            while let id = orders[delay]?.popDue(nowNanos: nowNanos) {
                if let entry = clients.removeValue(forKey: id) { due.append(entry.client) }
            }
            if orders[delay]?.count == 0 { orders[delay] = nil }
        }
        return due
    }

    /// Forgets every client (teardown).
    mutating func removeAll() {
        clients.removeAll()
        orders.removeAll()
    }
}
