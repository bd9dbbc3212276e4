/// Requests still arriving (head or body incomplete), per peer address: which have turned slow,
/// which go past their address's cap of slow ones, which ran out of time. Pure: the caller
/// passes the monotonic time, so tests drive it without sleeping.
///
/// Why per address, and why "slow" means *trickling*: a storm of handshakes from one address
/// (the join benchmark's 10,000 clients on 127.0.0.1) must never be refused, even though a busy
/// client may connect, then send its head a second or two later, in one piece; a slowloris
/// client sends part of a head and then very little, for as long as it is allowed. So a request
/// turns slow when, `slowAfterNanos` after its accept or later, it has sent part of its request
/// but not all of it. Past `slowPerAddress` slow requests of one address, each further one that
/// turns slow is refused. Every request, trickling or silent, must be complete within
/// `timeoutNanos` of its accept.
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
        /// Past `slowAfterNanos`: part of a request from now on makes it slow at once.
        var old = false
        /// Part of the request has arrived (and not all of it).
        var partial = false
        var slow = false
    }

    private var live: [Ticket: Entry] = [:]
    /// Tickets in start order, once for turning old and once for the deadline; finished ones
    /// are skipped when met.
    private var young = FIFO<(Ticket, UInt64)>()
    private var deadlines = FIFO<(Ticket, UInt64)>()
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
        live[t] = Entry(peer: peer)
        young.push((t, now))
        deadlines.push((t, now))
    }

    /// Part of the request arrived and it is still incomplete. A verdict means: refuse it now
    /// (it no longer counts).
    mutating func received(_ t: Ticket) -> Verdict? {
        guard var e = live[t], !e.slow else { return nil }
        e.partial = true
        live[t] = e
        return e.old ? turnSlow(t) : nil
    }

    /// The request is complete, answered or closed: it no longer counts.
    mutating func finished(_ t: Ticket) {
        guard let e = live.removeValue(forKey: t) else { return }
        if e.slow, let peer = e.peer {
            let n = (slowByPeer[peer] ?? 1) - 1
            slowByPeer[peer] = n > 0 ? n : nil
        }
    }

    /// Requests to refuse now, each with why (they no longer count); deadlines first.
    mutating func sweep(now: UInt64) -> [(Ticket, Verdict)] {
        var out: [(Ticket, Verdict)] = []
        // Subtraction only when now >= start: the clock is monotonic, but never trust it to trap.
        func age(_ start: UInt64) -> UInt64 { now >= start ? now - start : 0 }
        while let (t, start) = deadlines.first, age(start) >= timeoutNanos {
            _ = deadlines.pop()
            guard live[t] != nil else { continue }
            finished(t)
            out.append((t, .timedOut))
        }
        while let (t, start) = young.first, age(start) >= slowAfterNanos {
            _ = young.pop()
            guard var e = live[t] else { continue }
            e.old = true
            live[t] = e
            if e.partial, let verdict = turnSlow(t) { out.append((t, verdict)) }
        }
        return out
    }

    /// Counts a request as slow, or refuses it when its address has its share already.
    private mutating func turnSlow(_ t: Ticket) -> Verdict? {
        guard var e = live[t] else { return nil }
        if let peer = e.peer {
            guard slowCount(of: peer) < slowPerAddress else {
                finished(t)
                return .tooManySlow
            }
            slowByPeer[peer, default: 0] += 1
        }
        e.slow = true
        live[t] = e
        return nil
    }
}
