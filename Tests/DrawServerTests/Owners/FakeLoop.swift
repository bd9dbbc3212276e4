import DrawCore
@testable import DrawServer
@testable import DrawTransport
import Foundation
import Logging

/// A service loop without lws, for the room owners (like SwiftNIO's `EmbeddedEventLoop`): its
/// timers fire when the test says, and jobs handed over from other threads run when it calls
/// `runJobs()`. The test thread is the service thread.
final class FakeLoop: RoomLoop {
    let phase = ServerPhase()
    var destroying = false
    var isRunning = true
    var connectionCount = 0
    let inbox = ServiceInbox()
    let thread = ThreadOwner(name: "fake service")
    let executor: ServiceExecutor
    private(set) var timers: [ManualServiceTimer] = []

    init() {
        executor = ServiceExecutor(inbox: inbox, thread: thread)
        thread.claim()
    }

    func makeTimer(_ action: @escaping () -> Void) -> any ServiceTimer {
        let timer = ManualServiceTimer(action)
        timers.append(timer)
        return timer
    }

    /// Runs the jobs handed over so far, and those they hand over in turn, as the service loop
    /// does on a wake-up. Returns how many ran.
    @discardableResult
    func runJobs() -> Int {
        var ran = 0
        while case let jobs = inbox.drain(), !jobs.isEmpty {
            for job in jobs { job() }
            ran += jobs.count
        }
        return ran
    }

    /// Fires every armed timer once, in the order they were armed.
    func fireDueTimers() {
        for timer in timers where timer.armed != nil { timer.fire() }
    }
}

/// A timer that remembers what it was asked for and fires by hand.
final class ManualServiceTimer: ServiceTimer {
    private let action: () -> Void
    /// The delay of the pending schedule; `nil` when not armed.
    private(set) var armed: UInt64?
    private(set) var scheduled: [UInt64] = []

    init(_ action: @escaping () -> Void) { self.action = action }

    func schedule(afterNanos nanos: UInt64) {
        armed = nanos
        scheduled.append(nanos)
    }

    func cancel() { armed = nil }

    func fire() {
        armed = nil
        action()
    }
}

/// The room owners wired as the server wires them (`RoomOwners`), on a `FakeLoop`, one node,
/// no store.
struct OwnersFixture {
    let loop = FakeLoop()
    let clock = DrawRunnerPacingTests.ManualClock()
    let config: ServerConfig
    let storage: ServerStorage
    let owners: RoomOwners
    var directory: RoomDirectory { owners.directory }
    var broadcaster: RoomBroadcaster { owners.broadcaster }
    var draws: DrawCoordinator { owners.draws }
    var changes: RoomChanges { owners.changes }

    init(configure: (inout ServerConfig) -> Void = { _ in }) {
        var config = ServerConfig()
        config.loadingNoticeMs = 0
        configure(&config)
        self.config = config
        var logger = Logger(label: "owners")
        logger.logLevel = .critical
        storage = ServerStorage(store: nil, rooms: nil, executor: loop.executor, logger: logger)
        owners = RoomOwners(config: config, clock: clock, random: SystemTestRandom(), logger: logger,
                            metrics: ServerMetrics(), loop: loop, storage: storage, entrantLists: EntrantLists(),
                            loadPlayers: { MergeResult(players: RunningServer.players, warnings: []) },
                            sources: RunningServer.sources, seams: .singleNode())
    }

    /// Creates a room (no store: at once) and returns its host key.
    func createRoom(_ name: String) -> String? {
        var key: String?
        directory.createRoom(named: name) { result in if case .success(let made) = result { key = made.hostKey } }
        return key
    }

    /// The `type` of every message the room broadcast so far, in order.
    func broadcastTypes(in room: Room) -> [String] {
        (0..<room.ring.nextSeq).compactMap { seq in
            guard let message = room.ring.element(at: seq)?.bytes(for: .latest).bytes,
                  let json = try? JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else { return nil }
            return json["type"] as? String
        }
    }
}
