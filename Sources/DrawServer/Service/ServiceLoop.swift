import DrawTransport

/// The service loop: the transport, the inbox other threads post to, the timers, the
/// descriptors we read ourselves, the front door, and the count of open connections. It runs
/// on the service thread (threading rule 1 on `LiveDrawServer`) and checks so in debug builds.
final class ServiceLoop {
    let transport: Transport
    /// The only door in from other threads (rule 2).
    let inbox = ServiceInbox()
    /// How other threads hand work to this loop (`execute`, `continuation`), through `inbox`.
    let executor: ServiceExecutor
    /// The service thread, checked at its entry points in debug builds (threading rule 1): every
    /// event and every job the executor runs (`ServiceDispatcher`), every timer's firing (`LoopTimer`).
    var thread: ThreadOwner { transport.thread }
    /// Descriptors we read ourselves before (or instead of) lws; see `Readiness`.
    private(set) var readiness: Readiness?
    /// Accepts every connection and reads its request before lws does; see `FrontDoor`.
    var frontDoor: FrontDoor?
    /// Every accepted connection (HTTP or WebSocket) still open, for `maxConnections`.
    var openConnections = Set<Connection>()
    /// Set while the context is being destroyed: callbacks then only release memory.
    private(set) var destroying = false
    /// The loop ends after the current turn.
    var exitRequested = false
    private var housekeeping: LoopTimer?
    let metrics: ServerMetrics
    /// How far shutdown has come; every owner reads it.
    let phase = ServerPhase()

    /// A loop over `transport`, with its readiness set. `nil` when the set cannot be made.
    init?(transport: Transport, metrics: ServerMetrics) {
        self.transport = transport
        self.metrics = metrics
        executor = ServiceExecutor(inbox: inbox, thread: transport.thread)
        guard let watcher = Readiness(transport: transport) else { return nil }
        readiness = watcher
    }

    /// A timer on this loop.
    func timer(_ action: @escaping () -> Void) -> LoopTimer {
        transport.timer(action)
    }

    /// The housekeeping tick's period.
    static let housekeepingTickNanos: UInt64 = 100_000_000

    /// Runs `everyTick` every 100 ms and `everySecond` on every tenth tick, from the first turn of
    /// `run`, on the service thread.
    ///
    /// Why a tick finer than a second (issue 17): work that falls due per room (heartbeats) is
    /// done in the tick that finds it due, so rooms that fell due over a second were served in one
    /// turn — 250 quiet rooms × 10 viewers after a wave of draws ended is 2,500 writes, a 20–40 ms
    /// stall every second for every other room's rounds (scenario b's lateness tail). At 100 ms
    /// the same work comes in tenths.
    func startHousekeeping(everyTick: @escaping () -> Void, everySecond: @escaping () -> Void) {
        var ticks = 0
        housekeeping = timer { [unowned self] in
            everyTick()
            ticks += 1
            if ticks % 10 == 0 { everySecond() }
            self.housekeeping?.schedule(afterNanos: Self.housekeepingTickNanos)
        }
    }

    /// Services lws until `exitRequested`. Call it once, on the thread that is the service thread
    /// from now on; `first` runs before the first turn. False when lws failed. Each turn's CPU
    /// time goes to `livedraw_service_turn_cpu_seconds` (`ServerMetrics.serviceTurn`).
    func run(first: () -> Void) -> Bool {
        thread.claim()
        housekeeping?.schedule(afterNanos: Self.housekeepingTickNanos)
        first()
        while !exitRequested {
            let before = ThreadCPUClock.nanos()
            guard transport.service() else { return false }
            let after = ThreadCPUClock.nanos()
            metrics.serviceTurn(cpuNanos: after >= before ? after - before : 0)
        }
        return true
    }

    /// Ends the service: no more timers, no more wake-ups, then lws closes every connection
    /// (their last events run here, on the service thread) and frees the context.
    func tearDown() {
        guard transport.isRunning else { return }
        metrics.flush()
        destroying = true
        transport.timerGate.close()
        inbox.detach()
        frontDoor?.close()
        readiness?.close()
        transport.destroy()
        readiness = nil
        frontDoor = nil
        // Timers are cancelled and detached, so freeing them no longer touches lws.
        housekeeping = nil
    }

    /// Whether lws still runs (between `init` and `tearDown`).
    var isRunning: Bool { transport.isRunning }
}
