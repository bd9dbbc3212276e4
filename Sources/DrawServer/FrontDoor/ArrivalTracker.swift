/// Requests still arriving (head or body incomplete), per peer address: which have turned slow,
/// which go past their address's cap of slow ones, which ran out of time. Pure: the caller
/// passes the monotonic time, so tests drive it without sleeping.
///
/// Why per address and by time: a storm of complete handshakes from one address (the join
/// benchmark's 10,000 clients on 127.0.0.1) must never be refused, while a slowloris client may
/// keep only a few requests open. A request counts against its address only once it has been
/// arriving for `slowAfterNanos`; past `slowPerAddress` such requests, each one that turns slow
/// is refused. Every request must be complete within `timeoutNanos` of its accept.
struct ArrivalTracker {
    struct Ticket: Hashable {
        let fd: Int32
        let id: UInt64
    }

    enum Verdict: Equatable {
        /// Turned slow while its address already had `slowPerAddress` slow requests.
        case tooManySlow
        /// Still incomplete `timeoutNanos` after its accept.
        case timedOut
    }

    let slowAfterNanos: UInt64
    let timeoutNanos: UInt64
    let slowPerAddress: Int

    private struct Entry {
        let peer: PeerAddress?
        let startedAt: UInt64
        var slow = false
    }

    private var live: [Ticket: Entry] = [:]
    /// Tickets in start order (so in deadline order); finished ones are skipped when met.
    private var young = FIFO<(Ticket, UInt64)>()
    private var slow = FIFO<(Ticket, UInt64)>()
    private var slowByPeer: [PeerAddress: Int] = [:]

    init(slowAfterNanos: UInt64, timeoutNanos: UInt64, slowPerAddress: Int) {
        self.slowAfterNanos = slowAfterNanos
        self.timeoutNanos = timeoutNanos
        self.slowPerAddress = max(0, slowPerAddress)
    }

    var count: Int { live.count }

    /// Slow requests of `peer` right now.
    func slowCount(of peer: PeerAddress) -> Int { slowByPeer[peer] ?? 0 }

    mutating func started(_ t: Ticket, peer: PeerAddress?, at now: UInt64) {
        live[t] = Entry(peer: peer, startedAt: now)
        young.push((t, now))
    }

    /// The request is complete, answered or closed: it no longer counts.
    mutating func finished(_ t: Ticket) {
        guard let e = live.removeValue(forKey: t) else { return }
        if e.slow, let peer = e.peer { uncount(peer) }
    }

    /// Requests to refuse now, each with why (they no longer count); in start order.
    mutating func sweep(now: UInt64) -> [(Ticket, Verdict)] {
        var out: [(Ticket, Verdict)] = []
        // Subtraction only when now >= start: the clock is monotonic, but never trust it to trap.
        func age(_ start: UInt64) -> UInt64 { now >= start ? now - start : 0 }
        while let (t, start) = young.first, age(start) >= min(slowAfterNanos, timeoutNanos) {
            _ = young.pop()
            guard var e = live[t] else { continue }
            if age(start) >= timeoutNanos {
                finished(t)
                out.append((t, .timedOut))
            } else if let peer = e.peer, slowCount(of: peer) >= slowPerAddress {
                finished(t)
                out.append((t, .tooManySlow))
            } else {
                e.slow = true
                live[t] = e
                if let peer = e.peer { slowByPeer[peer, default: 0] += 1 }
                slow.push((t, start))
            }
        }
        while let (t, start) = slow.first, age(start) >= timeoutNanos {
            _ = slow.pop()
            guard live[t] != nil else { continue }
            finished(t)
            out.append((t, .timedOut))
        }
        return out
    }

    private mutating func uncount(_ peer: PeerAddress) {
        let n = (slowByPeer[peer] ?? 1) - 1
        slowByPeer[peer] = n > 0 ? n : nil
    }
}
