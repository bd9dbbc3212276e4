import DrawCore
@testable import DrawServer
import Foundation
import Testing

extension RealSocketTests {
    /// Runs the server by hand with a stub player list, for poking at it with curl, a browser or
    /// the Python e2e suite. Skipped unless LIVEDRAW_SERVE_SECONDS is set:
    ///
    ///     LIVEDRAW_SERVE_SECONDS=600 LIVEDRAW_PORT=8080 LIVEDRAW_PUBLIC=public \
    ///       swift test --filter ManualServeTests
    ///
    /// It prints the lobby host key (`--verbose` shows it), then serves with the default (400 ms)
    /// schedule. Optional: LIVEDRAW_TLS_CERT / LIVEDRAW_TLS_KEY (PEM files), LIVEDRAW_IDLE_PING /
    /// LIVEDRAW_IDLE_TIMEOUT (seconds), LIVEDRAW_HOST (bind address).
    @Suite struct ManualServeTests {
        static let seconds = ProcessInfo.processInfo.environment["LIVEDRAW_SERVE_SECONDS"].flatMap(Double.init)

        @Test(.enabled(if: seconds != nil)) func serveByHand() throws {
            let env = ProcessInfo.processInfo.environment
            let running = try RunningServer(configure: { config in
                config.port = env["LIVEDRAW_PORT"].flatMap(Int.init) ?? 8080
                if let host = env["LIVEDRAW_HOST"] { config.host = host }
                config.schedule = .original
                config.shutdownGraceMs = 2000
                if let dir = env["LIVEDRAW_PUBLIC"] { config.publicDir = dir }
                config.tlsCertPath = env["LIVEDRAW_TLS_CERT"]
                config.tlsKeyPath = env["LIVEDRAW_TLS_KEY"]
                if let s = env["LIVEDRAW_IDLE_PING"].flatMap(Int.init) { config.idlePingSeconds = s }
                if let s = env["LIVEDRAW_IDLE_TIMEOUT"].flatMap(Int.init) { config.idleTimeoutSeconds = s }
            })
            FileHandle.standardError.write(Data("live-draw test server on port \(running.port)  lobby host key: \(running.lobbyKey)\n".utf8))
            Thread.sleep(forTimeInterval: Self.seconds ?? 0)
            #expect(running.stop())
        }
    }
}
