import CoreMetrics
import DrawCore
import DrawData
import DrawServer
import Foundation
import LiveDrawCLI
import Logging
import Prometheus

/// The composition root: the only place that knows every layer. It builds the data adapters,
/// hands them to Core's use cases, and gives the server those, the draw store, the system random
/// source and clock, a logger and the metrics exposition.
struct LiveDrawApp {
    let configuration: LaunchConfiguration

    /// Starts the server, blocks until it has shut down, and returns the process exit code.
    func run() -> Int32 {
        let logger = Self.bootstrapLogging(level: configuration.logLevel, format: configuration.logFormat)
        let registry = PrometheusCollectorRegistry()
        // Before anything creates a metric: swift-metrics binds each one to the factory in place
        // at its creation, and the bootstrap may happen only once per process.
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = LiveDrawServer.metricsDurationBuckets
        MetricsSystem.bootstrap(factory)
        let clock = SystemClock()

        // First, on this thread, which runs the server (`server.run()` below): threads started
        // from here on (storage, list fetches) keep the normal policy (SCHED_RESET_ON_FORK).
        if let priority = configuration.realtimePriority {
            do {
                try ServiceThreadScheduling.makeRealtime(priority: priority)
            } catch {
                return Self.fail(error.description)
            }
            logger.notice("the service thread runs under SCHED_FIFO", metadata: ["priority": "\(priority)"])
        }

        let store: SQLiteDrawStore?
        do {
            store = try openStore(clock: clock, logger: logger)
        } catch {
            return Self.fail(error.description)
        }

        // After the store: it made the data directory and holds its lock, so this process alone
        // writes the key file there.
        let random = SystemRandomSource()
        var serverConfig = configuration.server
        // Rooms' own list URLs, under the operator's rules (off without allowed hosts).
        serverConfig.roomURLSources = configuration.sourceRestriction.map { RoomSourceFetcher(restriction: $0, fetch: configuration.fetch) }
        let lobbyKeyOrigin: LobbyKeySetting.Origin
        do {
            let lobby = try configuration.lobbyKey.resolve(random: random)
            serverConfig.lobbyHostKey = lobby.key
            lobbyKeyOrigin = lobby.origin
        } catch {
            store?.close()
            return Self.fail(error.description)
        }

        if let option = configuration.beacon {
            switch BeaconSetup.resolve(option, fetch: configuration.fetch, logger: logger) {
            case .success(let beacon): serverConfig.beacon = beacon
            case .failure(let error):
                store?.close()
                return Self.fail(error.description)
            }
        }

        // Cluster mode: rooms live in Redis, shared by every node; this node's draws are still
        // recorded in its own SQLite store (its audit log).
        var cluster = configuration.redisURL.map { ClusterSetup(url: $0, seal: configuration.clusterSeal, retention: configuration.historyRetention,
                                                                  random: random, clock: clock, logger: logger) }
        // The history lines this node owes the cluster, and its copy of every draw the cluster
        // ended, are rows of its own SQLite store.
        cluster?.services.outbox = store
        cluster?.services.archive = store
        if let cluster {
            logger.notice("cluster mode", metadata: ["node": "\(cluster.nodeId)", "redis": "\(cluster.url)"])
        }
        // Before the server takes its port: a node on an evicting Redis is a configuration error.
        if let refusal = cluster?.evictionRefusal(logger: logger) {
            store?.close()
            return Self.fail(refusal)
        }

        let server: LiveDrawServer
        do {
            server = try LiveDrawServer(config: serverConfig,
                                        loadPlayers: makeLoadPlayers(),
                                        random: random,
                                        clock: clock,
                                        logger: logger,
                                        metricsText: { registry.emitToString() },
                                        store: store,
                                        roomStore: cluster?.roomStore ?? store,
                                        sources: DrawSources(usersURL: configuration.usersURL,
                                                             lotteryURL: configuration.lotteryURL),
                                        cluster: cluster?.services)
        } catch {
            store?.close()   // a server that failed to start leaves the store with its caller
            return Self.fail(error.description)
        }

        let banner = StartupBanner(host: configuration.server.host, port: server.port,
                                   tls: configuration.server.tlsCertPath != nil,
                                   lobbyHostKey: server.lobbyHostKey, lobbyKeyOrigin: lobbyKeyOrigin)
        switch configuration.logFormat {
        case .text:
            for line in banner.lines { logger.notice("\(line)") }
        case .json:
            // The host link stays out of the JSON log (collectors store and index it); the
            // operator still sees it once, on standard error. docs: README "Logs".
            for line in banner.publicLines { logger.notice("\(line)") }
            FileHandle.standardError.write(Data((banner.hostLinkLine + "\n").utf8))
        }
        logger.info("player lists", metadata: ["users": "\(configuration.usersURL)",
                                               "lottery": "\(configuration.lotteryURL)"])

        ShutdownSignals.watch(logger: logger, drain: { server.drain() }, stop: { server.stop() })
        server.run()
        return 0
    }

    /// Opens the draw records, if a data directory is configured, and closes what a dead process
    /// left running. Before the server exists, as docs/STORAGE.md asks: no draw may start on top
    /// of unrecovered records, and a data directory another live-draw holds must stop this one
    /// before it takes a port.
    private func openStore(clock: SystemClock, logger: Logger) throws(StorageError) -> SQLiteDrawStore? {
        guard let directory = configuration.dataDirectory else {
            logger.notice("--data-dir off: draws are not recorded, and rooms last only as long as this process")
            return nil
        }
        let store = try SQLiteDrawStore(configuration: .init(dataDirectory: directory))
        if let why = store.compactionFailure {
            logger.warning("the draw records were migrated, but VACUUM failed: the file keeps its free pages until compacted (docs/STORAGE.md)",
                           metadata: ["path": "\(store.path)", "error": "\(why)"])
        }
        do {
            // In cluster mode the reconciled draws are owed to the shared history, which still
            // says `running` for them (same transaction: a crash now cannot lose that).
            let outbox: (any HistoryOutboxStore)? = configuration.redisURL == nil ? nil : store
            let recovered = try RecoverInterruptedDraws(store: store, clock: clock, outbox: outbox).execute()
            if recovered > 0 {
                logger.notice("marked draws interrupted by an earlier crash", metadata: ["count": "\(recovered)"])
            }
        } catch {
            store.close()
            throw error
        }
        logger.info("draw records", metadata: ["path": "\(store.path)"])
        return store
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
    /// flushed per line, so a script reading the banner sees it at once; as text or JSON.
    private static func bootstrapLogging(level: Logger.Level, format: LogFormat) -> Logger {
        LoggingSystem.bootstrap(format.handlerFactory(level: level))
        return Logger(label: "live-draw")
    }

    /// A start that failed after the configuration was accepted: one line, exit 1.
    private static func fail(_ reason: String) -> Int32 {
        FileHandle.standardError.write(Data((Launch.errorLine(reason) + "\n").utf8))
        return 1
    }
}
