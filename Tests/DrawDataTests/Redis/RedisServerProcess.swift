@testable import DrawData
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` for one test: its own free port on 127.0.0.1, its own temporary
/// directory, no persistence (`--save '' --appendonly no`). Started by `init`, which returns once
/// PING answers; `kill()` (SIGKILL, like a crash) and `restart()` (same port, same options) drive
/// the reconnect tests; `stop()` ends it and removes the directory.
///
/// Tests that need it carry `.enabled(if: RedisServerProcess.isInstalled, ...)`, so a machine
/// without the binary skips them with that message; `scripts/install-deps.sh --test` installs it.
final class RedisServerProcess {
    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The binary, looked up on PATH and in Debian's place.
    static let binary: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/redis-server" } + ["/usr/bin/redis-server"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isInstalled: Bool { binary != nil }
    static let skipMessage: Comment = "redis-server is not installed (scripts/install-deps.sh --test installs Debian's redis-server)"

    private(set) var port: Int
    let directory: URL
    let password: String?
    let extraArguments: [String]
    private var pid: pid_t?

    /// Starts a server; `password` sets `--requirepass`, `extraArguments` go after the defaults.
    init(password: String? = nil, extraArguments: [String] = []) throws {
        guard Self.binary != nil else { throw StartFailure(description: "redis-server not installed") }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("ld-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.password = password
        self.extraArguments = extraArguments
        // The kernel's free port, released just before redis-server binds it. In that window the
        // kernel may hand the same port to another test's outgoing connection (CI saw it once:
        // "bind: Address already in use"), so a start refused for that reason takes a new port.
        port = try Self.freePort()
        for attempt in 1... {
            do {
                try start()
                return
            } catch let failure as StartFailure where failure.description.contains("Address already in use") && attempt < 5 {
                port = try Self.freePort()
            }
        }
    }

    private static func freePort() throws -> Int {
        let (fd, freePort) = try LoopbackSocket.bindEphemeral()
        close(fd)
        return Int(freePort)
    }

    deinit { stop() }

    /// A URL for this server (with the password, if it has one).
    var url: RedisURL { RedisURL(host: "127.0.0.1", port: port, password: password) }

    /// A configuration with short timeouts and a fast backoff, so failure tests finish quickly.
    func configuration(url: RedisURL? = nil, backoffMaxMs: Int = 400, pingIntervalMs: Int = 1_000) -> RedisConfiguration {
        RedisConfiguration(url: url ?? self.url, connectTimeoutMs: 500, commandTimeoutMs: 1_000,
                           backoff: ReconnectBackoff(initialMs: 20, maxMs: backoffMaxMs), pingIntervalMs: pingIntervalMs)
    }

    var isRunning: Bool { pid != nil }

    /// The running server's process id.
    var processID: pid_t? { pid }

    /// Starts (again) on the same port with the same options; returns once PING answers.
    ///
    /// posix_spawn rather than Foundation's `Process`: the test runner's threads block signals,
    /// a spawned child inherits that mask, and a redis-server with SIGTERM blocked never stops.
    /// Here the child gets an empty mask and default handlers.
    func start() throws {
        guard pid == nil, let binary = Self.binary else { return }
        var arguments = [binary, "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path,
                         "--save", "", "--appendonly", "no", "--daemonize", "no",
                         "--logfile", directory.appendingPathComponent("redis.log").path]
        if let password { arguments += ["--requirepass", password] }
        arguments += extraArguments

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, binary, nil, &attributes, cArguments, environ)
        guard status == 0 else { throw StartFailure(description: "posix_spawn redis-server: errno \(status)") }
        pid = child
        try waitForPing()
    }

    /// SIGKILL, as if the machine lost it; returns once the process is gone.
    func kill() { end(signal: SIGKILL) }

    func restart() throws {
        kill()
        try start()
    }

    /// Ends the server (SIGTERM, then SIGKILL after 5 s) and removes its directory.
    func stop() {
        end(signal: SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }

    private func end(signal: Int32) {
        guard let pid else { return }
        Glibc.kill(pid, signal)
        let deadline = ContinuousClock.now + .seconds(5)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline { Glibc.kill(pid, SIGKILL) }
            usleep(2_000)
        }
        self.pid = nil
    }

    /// Whether the child is still alive (reaps it if it exited).
    private func childAlive() -> Bool {
        guard let pid else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            self.pid = nil
            return false
        }
        return true
    }

    /// Polls with PING until it answers (PONG, or NOAUTH when a password is required), the
    /// process dies, or 10 s pass.
    private func waitForPing() throws {
        let deadline = ContinuousClock.now + .seconds(10)
        let probe = RedisURL(host: "127.0.0.1", port: port, password: password)
        while ContinuousClock.now < deadline {
            guard childAlive() else {
                let log = (try? String(contentsOf: directory.appendingPathComponent("redis.log"), encoding: .utf8)) ?? ""
                throw StartFailure(description: "redis-server on port \(port) exited: \(log.suffix(600))")
            }
            if let context = try? RedisContext(url: probe, connectTimeoutMs: 200, commandTimeoutMs: 500),
               (try? context.command([Array("PING".utf8)])) == .status("PONG") {
                return
            }
            usleep(10_000)
        }
        throw StartFailure(description: "redis-server on port \(port) did not answer PING within 10 s")
    }
}

/// Waits until `condition` holds, checking every 5 ms, for at most `seconds`. Returns whether it
/// held: tests wait on what they can observe, with a deadline, never on a fixed sleep.
func eventually(within seconds: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(5_000)
    }
    return try condition()
}
