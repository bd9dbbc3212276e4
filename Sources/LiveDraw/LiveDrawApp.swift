import CoreMetrics
import DrawCore
import DrawData
import DrawServer
import Foundation
import LiveDrawCLI
import Logging
import Prometheus

/// The composition root: the only place that knows every layer. It builds the data adapters,
/// hands them to Core's use case, and gives the server that use case, the system random source
/// and clock, a logger and the metrics exposition.
struct LiveDrawApp {
    let configuration: LaunchConfiguration

    /// Starts the server, blocks until it has shut down, and returns the process exit code.
    func run() -> Int32 {
        let logger = Self.bootstrapLogging(level: configuration.logLevel)
        let registry = PrometheusCollectorRegistry()
        // Before anything creates a metric: swift-metrics binds each one to the factory in place
        // at its creation, and the bootstrap may happen only once per process.
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        let server: LiveDrawServer
        do {
            server = try LiveDrawServer(config: configuration.server,
                                        loadPlayers: makeLoadPlayers(),
                                        random: SystemRandomSource(),
                                        clock: SystemClock(),
                                        logger: logger,
                                        metricsText: { registry.emitToString() })
        } catch {
            FileHandle.standardError.write(Data((Launch.errorLine(error.description) + "\n").utf8))
            return 1
        }

        let banner = StartupBanner(host: configuration.server.host, port: server.port,
                                   tls: configuration.server.tlsCertPath != nil,
                                   lobbyHostKey: server.lobbyHostKey)
        for line in banner.lines { logger.notice("\(line)") }
        logger.info("player lists", metadata: ["users": "\(configuration.usersURL)",
                                               "lottery": "\(configuration.lotteryURL)"])

        ShutdownSignals.watch(logger: logger) { server.stop() }
        server.run()
        return 0
    }

    /// Data → Core: two repositories over one libcurl client, merged by `LoadPlayers`. Built once;
    /// each draw calls the closure, so every draw fetches the lists afresh.
    private func makeLoadPlayers() -> @Sendable () async throws(DrawError) -> MergeResult {
        let client = CurlHTTPClient(configuration: configuration.fetch)
        let useCase = LoadPlayers(users: HTTPUserRepository(url: configuration.usersURL, client: client),
                                  lottery: HTTPLotteryRepository(url: configuration.lotteryURL, client: client))
        return { () async throws(DrawError) -> MergeResult in try await useCase.execute() }
    }

    /// Log lines go to standard output (where container runtimes and `make run` collect them),
    /// flushed per line, so a script reading the banner sees it at once.
    private static func bootstrapLogging(level: Logger.Level) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "live-draw")
    }
}
