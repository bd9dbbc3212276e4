import DrawCore
@testable import DrawServer
import Foundation
import Logging

/// Wall and monotonic clocks from the OS.
struct SystemTestClock: DrawClock {
    func epochMillis() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1e6
    }
    func monotonicNanos() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }
}

struct SystemTestRandom: RandomSource {
    func bytes(_ count: Int) -> [UInt8] {
        var g = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) }
    }
}

/// A `LiveDrawServer` on port 0, its loop on a background thread, and a temporary public folder.
final class RunningServer: @unchecked Sendable {
    let server: LiveDrawServer
    let publicDir: URL
    private let done = DispatchSemaphore(value: 0)

    var port: Int { server.port }
    var lobbyKey: String { server.lobbyHostKey }

    static let players = [
        Player(userId: 10, name: "Jack Alexy", username: "JAlex", regDate: CalendarDate(iso: "2020-10-19")!, isVoid: false),
        Player(userId: 4, name: "Mack", username: "mackMack13", regDate: CalendarDate(iso: "2018-10-02")!, isVoid: false),
        Player(userId: 182, name: "Mohsen", username: "AghaMohsen", regDate: CalendarDate(iso: "2020-04-12")!, isVoid: true),
    ]

    /// The sources every test server records its draws with.
    static let sources = DrawSources(usersURL: "http://127.0.0.1:1/users.json", lotteryURL: "file:///tmp/lottery.json")

    /// - Parameter store: recorded draws and history endpoints; the server closes it on `stop()`.
    /// - Parameter roomStore: where rooms are kept (used only with `store`; usually the same one).
    /// - Parameter clock: the server's clock; tests that move time on pass a `ShiftableClock`.
    init(configure: (inout ServerConfig) -> Void = { _ in },
         store: (any DrawRecordStore)? = nil,
         roomStore: (any RoomStore)? = nil,
         clock: any DrawClock = SystemTestClock(),
         loadPlayers: @escaping @Sendable () async throws(DrawError) -> MergeResult = {
             MergeResult(players: RunningServer.players, warnings: [])
         }) throws {
        publicDir = FileManager.default.temporaryDirectory.appendingPathComponent("livedraw-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: publicDir, withIntermediateDirectories: true)
        try Data("<!doctype html><title>test</title>".utf8).write(to: publicDir.appendingPathComponent("index.html"))
        var config = ServerConfig()
        config.port = 0
        config.publicDir = publicDir.path
        config.presenceIntervalMs = 50
        // Most tests follow a draw from its `loading`; LoadingNoticeTests covers holding it back.
        config.loadingNoticeMs = 0
        config.schedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 20))!
        config.closeGraceMs = 500
        configure(&config)
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        server = try LiveDrawServer(config: config, loadPlayers: loadPlayers, random: SystemTestRandom(),
                                    clock: clock, logger: logger,
                                    metricsText: { "livedraw_test 1\n" }, store: store, roomStore: roomStore,
                                    sources: Self.sources)
        let s = server, d = done
        let thread = Thread { s.run(); d.signal() }
        thread.start()
    }

    /// Calls `stop()` and waits for `run()` to return. False on timeout.
    @discardableResult
    func stop(timeout: Double = 10) -> Bool {
        server.stop()
        return waitForRunToReturn(timeout: timeout)
    }

    func waitForRunToReturn(timeout: Double) -> Bool {
        done.wait(timeout: .now() + timeout) == .success
    }

    deinit { try? FileManager.default.removeItem(at: publicDir) }
}
