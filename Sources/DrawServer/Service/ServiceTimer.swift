import DrawTransport

/// A one-shot timer on the service loop, as the owners see it: a draw's next step, a room's
/// presence or held-back `loading`, a cluster's lease renewal.
///
/// A protocol so that the owners run without a server in tests: a fake loop hands out timers
/// that fire when the test says, with exactly the delays they were asked for. The server's are
/// the transport's timers (`LoopTimer`).
protocol ServiceTimer: AnyObject {
    /// Arms the timer `nanos` from now, replacing an earlier schedule.
    func schedule(afterNanos nanos: UInt64)
    func cancel()
}

extension LoopTimer: ServiceTimer {}

/// What the room owners need of the service loop: where shutdown stands, timers, the way in
/// from other threads, and the count of open connections. `ServiceLoop` is the server's; tests
/// hand the owners a fake one, so rooms, draws and fan-out are tested without a socket (like
/// SwiftNIO's `EmbeddedEventLoop`).
protocol RoomLoop: AnyObject {
    /// How far shutdown has come.
    var phase: ServerPhase { get }
    /// The loop is being torn down: callbacks only release memory.
    var destroying: Bool { get }
    /// Between the start and the teardown: timers may be made.
    var isRunning: Bool { get }
    /// Jobs from other threads (`ServiceExecutor`).
    var executor: ServiceExecutor { get }
    /// Connections open now (heartbeats' write budget).
    var connectionCount: Int { get }
    /// A timer on this loop that runs `action` when it fires, on the service thread.
    func makeTimer(_ action: @escaping () -> Void) -> any ServiceTimer
}

extension ServiceLoop: RoomLoop {
    var connectionCount: Int { openConnections.count }
    func makeTimer(_ action: @escaping () -> Void) -> any ServiceTimer { timer(action) }
}
