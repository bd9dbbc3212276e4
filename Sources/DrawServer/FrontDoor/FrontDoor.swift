import DrawCore
import DrawTransport
import Glibc
import Logging

/// What the front door needs from the server: how many connections lws holds, whether it is
/// stopping, and the hand-over itself. Implemented by `ServiceLoop`.
protocol FrontDoorHost: AnyObject {
    /// Connections lws holds now (HTTP and WebSocket).
    var lwsConnectionCount: Int { get }
    var isShuttingDown: Bool { get }
    /// Hands `fd` and the bytes read from it to lws (`Transport.adoptSocket`). `fd` is lws' from
    /// this call on, whatever happens; lws' WSI_CREATE for it runs during the call. False when
    /// lws no longer has the connection when the call returns.
    func adopt(_ fd: Int32, _ bytes: [UInt8]) -> Bool
    /// Forgets a connection lws freed without telling (`FrontDoor.adopt`).
    func forget(_ c: Connection)
}

/// Our HTTP front door: accepts every connection on our own listening socket and reads each
/// request head (and body) itself, bounded in size and time, before lws sees any of it.
///
/// Why (issue 11, findings 2, 4, 11): lws 4.1 gives a connection one of its few header tables
/// while it reads the head, for up to 10 s, so a slowloris client starved everyone; it spun on
/// EMFILE in its own accept loop; and its parser dropped or mis-answered h2c, huge heads, odd
/// methods. Here slow heads cost a descriptor and a small buffer, never a table; per-address,
/// deadline and size limits refuse them; and lws only ever receives complete, checked heads.
///
/// Flow: accept (`Acceptor`: a bounded batch per wake; EMFILE pauses accepting) → read until
/// the head and the body are in (`HeadScanner`, `RequestHeadParser`) → answer it ourselves (400/
/// 404/405/408/413/414/431/503/505, then a lingering close, `LingeringCloses`) or hand it to lws
/// with the bytes read, at most `headerTables` at a time; more wait here, in order
/// (`HandOverLine`). With TLS the front door cannot read: it
/// hands connections over unread (limits and the EMFILE pause still apply), also at most
/// `headerTables` at a time in lws' TLS handshake and request head, and one that is still there
/// after `slowTLSNanos` stops counting (see `HandOverLine`).
///
/// Why the bound under TLS too (issue 29): lws arms a timeout for each connection it adopts
/// under TLS, and again when its TLS handshake is done, each inserted by walking its one sorted
/// timer list from the head, and every new deadline is the latest: O(connections in their
/// handshake) per insert. A storm of 10,000 wss viewers handed over at once spent 59% of the
/// server's CPU in that walk (`lws_dll2_add_sorted`; Benchmarks/README.md, "Fan-out over TLS").
///
/// Threading: service thread only (rule 1 of `LiveDrawServer`), including every handler and timer.
final class FrontDoor {
    struct Settings {
        var limits = RequestLimits()
        var headTimeoutNanos: UInt64 = 5_000_000_000
        var slowAfterNanos: UInt64 = 1_000_000_000
        var slowPerAddress = 16
        /// lws' header tables: how many handed-over requests may be in lws' parser at once.
        var headerTables = 256
        /// Connection limits, the same as before: past `maxConnections` 503, past the slack closed.
        var maxConnections = 20_000
        var hardSlack = 64
        /// False with TLS: lws must do the handshake, so it reads the heads too.
        var readsHeads = true
        /// With TLS: a connection in lws' handshake this long stops holding one of the
        /// `headerTables` places, so that clients that connect and send nothing (or are slow)
        /// cannot keep the others waiting; lws' own timeout still ends it.
        var slowTLSNanos: UInt64 = 1_000_000_000
    }

    static let sweepIntervalNanos: UInt64 = 100_000_000
    static let readChunk = 4096

    let settings: Settings
    /// The listening socket, and the pause when out of descriptors.
    let acceptor: Acceptor
    unowned let host: FrontDoorHost
    let readiness: Readiness
    let clock: any DrawClock
    let logger: Logger

    var requests: [Int32: PendingRequest] = [:]
    /// Connections answered here, closing gracefully.
    var lingering = LingeringCloses()
    /// Complete requests on their way to lws, and what lws is not given of them.
    var line: HandOverLine
    /// Checks an upload's room, key and type before its body is read; set once by the server.
    /// Without one (tests of the front door alone) every upload is admitted.
    weak var uploadGate: (any UploadGate)?
    /// Entrant list uploads whose body is being read (bodies past `RequestLimits.maxBodyBytes`,
    /// up to `maxUploadBytes` each), each holding one of the slots; one more is answered
    /// `503 busy` (with `Retry-After`) before its body is read.
    var uploads = UploadReads()
    var tracker: ArrivalTracker
    var nextID: UInt64 = 0
    var closed = false
    var sweepTimer: LoopTimer?
    var drainTimer: LoopTimer?
    /// With TLS: drains the line when the oldest handshake in lws turns slow.
    var slowTLSTimer: LoopTimer?
    var sweepArmed = false
    /// How much of a request is read before its head is complete: at most one chunk past head and
    /// standard body (what may come in the same packets as the head). Nil when that overflows
    /// (absurd limits): every request is then refused as too large.
    let headReadCap: Int?
    /// One read buffer for every connection's head and lingering input (one thread, one read at a
    /// time); bodies are received into their own buffers.
    var scratch = [UInt8](repeating: 0, count: FrontDoor.readChunk)

    init(settings: Settings, listener: ListenSocket, host: FrontDoorHost, readiness: Readiness,
         loop: ServiceLoop, clock: any DrawClock, logger: Logger) {
        self.settings = settings
        acceptor = Acceptor(listener: listener, readiness: readiness, loop: loop, clock: clock, logger: logger)
        self.host = host
        self.readiness = readiness
        self.clock = clock
        self.logger = logger
        line = HandOverLine(headerTables: settings.headerTables,
                            slowTLSNanos: settings.readsHeads ? nil : settings.slowTLSNanos)
        let (sum, sumOverflow) = settings.limits.maxHeadBytes.addingReportingOverflow(settings.limits.maxBodyBytes)
        let (cap, capOverflow) = sum.addingReportingOverflow(Self.readChunk)
        headReadCap = sumOverflow || capOverflow ? nil : cap
        tracker = ArrivalTracker(slowAfterNanos: settings.slowAfterNanos, timeoutNanos: settings.headTimeoutNanos,
                                 slowPerAddress: settings.slowPerAddress)
        sweepTimer = loop.timer { [unowned self] in self.sweep() }
        drainTimer = loop.timer { [unowned self] in self.drainWaiting() }
        slowTLSTimer = loop.timer { [unowned self] in self.drainWaiting() }
    }

    /// Descriptors the front door holds: requests being read, waiting, or closing.
    var heldCount: Int { requests.count + line.waitingCount + lingering.count }

    /// Every connection open now, ours and lws'.
    var connectionCount: Int { heldCount + host.lwsConnectionCount }

    /// Starts accepting. False when the listening socket cannot be watched.
    func start() -> Bool {
        acceptor.start(openCount: { [unowned self] in connectionCount },
                       accepted: { [unowned self] fd, peer in accepted(fd, peer: peer) })
    }

    /// Stops for good: closes the listening socket and every connection not yet handed over.
    /// Before lws is destroyed (the timers and the readiness set go with it).
    func close() {
        guard !closed else { return }
        closed = true
        acceptor.close()
        for r in requests.values { drop(r) }
        for fd in line.abandonWaiting() { Glibc.close(fd) }
        for fd in lingering.descriptors { endLinger(fd) }
        sweepTimer = nil
        drainTimer = nil
        slowTLSTimer = nil
    }

    // MARK: accepted connections

    private func accepted(_ fd: Int32, peer: PeerAddress?) {
        // The hard limit: refused before anything is spent on it, as lws' filter did.
        if connectionCount >= settings.maxConnections + settings.hardSlack {
            Glibc.close(fd)
            return
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard settings.readsHeads else { return handOver(HandOverLine.Ready(fd: fd, bytes: [], body: nil)) }
        nextID &+= 1
        let r = PendingRequest(fd: fd, id: nextID, peer: peer, limits: settings.limits)
        requests[fd] = r
        tracker.started(r.ticket, peer: peer, at: clock.monotonicNanos())
        // Fast clients' heads are often in already: no epoll round trip for them.
        read(r)
        guard requests[fd] === r else { return }
        armSweep()
        // An upload may be waiting for its checks (not watched), or admitted already (watched).
        guard !r.checking, !r.watched else { return }
        r.watched = readiness.watch(fd, for: .readable) { [unowned self] _ in self.readable(fd) }
        if !r.watched { drop(r) }
    }

    // MARK: handing over

    /// lws' WSI_CREATE: a connection it creates during a hand-over of a request we read holds a
    /// header table (and may come with a body).
    func lwsCreated(_ wsi: Connection) {
        line.created(wsi, now: clock.monotonicNanos())
    }

    /// lws' ESTABLISHED or WSI_DESTROY: the connection's header table is free again.
    func lwsSettled(_ wsi: Connection) {
        guard line.settled(wsi) else { return }
        // Not from inside this callback, which may run within another hand-over.
        drainTimer?.schedule(afterNanos: 0)
    }

    /// The body the front door read for `wsi`'s request, once.
    func takeBody(_ wsi: Connection) -> [UInt8]? {
        line.takeBody(wsi)
    }

    /// Whether `wsi`'s request was a PUT (lws was told POST), once.
    func takeWasPut(_ wsi: Connection) -> Bool {
        line.takeWasPut(wsi)
    }

    /// A complete, accepted request: to lws now if it has a table free, else in line.
    func handOver(_ ready: HandOverLine.Ready) {
        guard let admitted = line.arrived(ready, now: clock.monotonicNanos()) else { return armSlowTLS() }
        adopt(admitted)
    }

    private func drainWaiting() {
        line.expireSlowTLS(now: clock.monotonicNanos())
        while let ready = line.next() { adopt(ready) }
        armSlowTLS()
    }

    /// With TLS, while connections wait: a drain when the oldest handshake in lws turns slow.
    private func armSlowTLS() {
        guard let due = line.slowTLSDue() else { return }
        let now = clock.monotonicNanos()
        slowTLSTimer?.schedule(afterNanos: due > now ? due - now : 0)
    }

    private func adopt(_ ready: HandOverLine.Ready) {
        line.beginAdoption(ready)
        // lws' WSI_CREATE for it (`lwsCreated`) runs during this call.
        let kept = host.adopt(ready.fd, ready.bytes)
        if let lost = line.endAdoption(kept: kept) { host.forget(lost) }
    }
}
