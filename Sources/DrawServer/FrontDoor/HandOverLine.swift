import DrawTransport

/// The front door's line to lws: complete requests waiting for one of lws' header tables, the
/// handed-over connections that hold one, and what lws is not given of a request (its body and
/// whether it was a PUT, see `RequestHead.forwardedHead`), kept by connection until the API
/// takes it (`takeBody`, `takeWasPut`) or lws is done with the connection (`settled`).
///
/// Why a line: lws 4.1 holds a header table for each request in its parser, and has few; at most
/// `headerTables` handed-over connections are there at once, the rest wait here in arrival order
/// (issue 11). With TLS, one still in lws' handshake after the clock's limit stops holding its
/// place (`expireSlowTLS`, issue 29).
///
/// A value: the front door performs each hand-over (`FrontDoorHost.adopt`) between
/// `beginAdoption` and `endAdoption`, and lws' WSI_CREATE for it comes back during that call as
/// `created`. Times are passed in, so tests drive it without lws or a clock. Service thread only.
struct HandOverLine {
    /// A complete, accepted request on its way to lws: the head it gets, and the body it does
    /// not (see `RequestHead.forwardedHead`).
    struct Ready {
        let fd: Int32
        let bytes: [UInt8]
        let body: [UInt8]?
        /// A PUT, forwarded as a POST: the API asks `takeWasPut`.
        var put = false
    }

    /// lws' header tables: how many handed-over connections may be in its parser at once.
    let headerTables: Int
    /// With TLS only: how long each connection in `handshakes` has been in lws' handshake.
    private var tlsClock: TLSHandshakeClock?
    /// Complete requests waiting for a table, in arrival order.
    private var waiting = FIFO<Ready>()
    /// Handed-over connections still in lws' parser (each holding a table).
    private(set) var handshakes = Set<Connection>()
    /// Request bodies, by the lws connection they belong to, until the API takes them.
    private var bodies: [Connection: [UInt8]] = [:]
    /// Connections whose request was a PUT, handed to lws as a POST.
    private var puts = Set<Connection>()
    /// During a hand-over: what goes with the connection lws creates, and the one it created.
    private var adopting: (body: [UInt8]?, put: Bool, created: Connection?)?

    /// `slowTLSNanos`: with TLS (lws reads the heads), how long a connection may hold its table
    /// in lws' handshake; nil without.
    init(headerTables: Int, slowTLSNanos: UInt64?) {
        self.headerTables = headerTables
        tlsClock = slowTLSNanos.map { TLSHandshakeClock(limit: $0) }
    }

    /// Requests waiting for a table.
    var waitingCount: Int { waiting.count }

    /// A complete request: itself when it may go to lws now, nil when it waits in line.
    mutating func arrived(_ ready: Ready, now: UInt64) -> Ready? {
        expireSlowTLS(now: now)
        guard waiting.isEmpty, handshakes.count < headerTables else {
            waiting.push(ready)
            return nil
        }
        return ready
    }

    /// The next waiting request that may go to lws now (a table is free), or nil.
    mutating func next() -> Ready? {
        guard handshakes.count < headerTables else { return nil }
        return waiting.pop()
    }

    /// With TLS: connections in lws' handshake for the clock's limit and more stop counting
    /// against `headerTables` (they stay in lws until they finish or its timeout ends them).
    mutating func expireSlowTLS(now: UInt64) {
        guard tlsClock != nil else { return }
        var expired: [Connection] = []
        tlsClock?.expire(now: now) { expired.append($0) }
        for wsi in expired { handshakes.remove(wsi) }
    }

    /// With TLS, while requests wait: when the oldest handshake in lws turns slow (and a place
    /// may come free); nil when there is nothing to wait for.
    mutating func slowTLSDue() -> UInt64? {
        guard !waiting.isEmpty else { return nil }
        return tlsClock?.nextDue()
    }

    /// Before `FrontDoorHost.adopt(ready)`: the connection lws creates during it gets this.
    mutating func beginAdoption(_ ready: Ready) {
        adopting = (ready.body, ready.put, nil)
    }

    /// lws' WSI_CREATE: a connection it creates during a hand-over holds a header table and gets
    /// the request's body and PUT flag. Ignored outside a hand-over (lws' own connections).
    mutating func created(_ wsi: Connection, now: UInt64) {
        guard let current = adopting else { return }
        adopting?.created = wsi
        handshakes.insert(wsi)
        tlsClock?.began(wsi, at: now)
        if let body = current.body { bodies[wsi] = body }
        if current.put { puts.insert(wsi) }
    }

    /// After the hand-over, with whether lws still has the connection. lws closes a connection
    /// it is done with through WSI_DESTROY (`settled`), except when its adoption fails half-way
    /// (out of memory): then it frees the connection silently, and a table counted for it would
    /// stay taken for good. Returns that connection, now forgotten here, for the server to forget.
    mutating func endAdoption(kept: Bool) -> Connection? {
        let created = adopting?.created
        adopting = nil
        guard !kept, let wsi = created, handshakes.remove(wsi) != nil else { return nil }
        tlsClock?.ended(wsi)
        bodies[wsi] = nil
        puts.remove(wsi)
        return wsi
    }

    /// lws' ESTABLISHED or WSI_DESTROY: the connection's table is free again, and what the API
    /// did not take of its request is dropped. True when requests wait for the freed table.
    mutating func settled(_ wsi: Connection) -> Bool {
        bodies[wsi] = nil
        puts.remove(wsi)
        tlsClock?.ended(wsi)
        return handshakes.remove(wsi) != nil && !waiting.isEmpty
    }

    /// The body the front door read for `wsi`'s request, once.
    mutating func takeBody(_ wsi: Connection) -> [UInt8]? {
        bodies.removeValue(forKey: wsi)
    }

    /// Whether `wsi`'s request was a PUT (lws was told POST), once.
    mutating func takeWasPut(_ wsi: Connection) -> Bool {
        puts.remove(wsi) != nil
    }

    /// Empties the line (the front door is closing): the descriptors of the requests that waited.
    mutating func abandonWaiting() -> [Int32] {
        var fds: [Int32] = []
        while let ready = waiting.pop() { fds.append(ready.fd) }
        return fds
    }
}
