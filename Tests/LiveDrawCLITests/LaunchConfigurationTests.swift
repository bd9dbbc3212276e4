import DrawCore
import DrawData
import DrawServer
import Foundation
import LiveDrawCLI
import Testing

struct LaunchConfigurationTests {
    private func configure(_ arguments: [String], in tree: TempTree) throws -> LaunchConfiguration {
        try LaunchConfiguration(options: LaunchOptions.parse(arguments), paths: tree.paths)
    }

    /// The error message for `arguments`, or nil if they are accepted.
    private func error(_ arguments: [String], in tree: TempTree) throws -> String? {
        do {
            _ = try configure(arguments, in: tree)
            return nil
        } catch let e as ConfigurationError {
            return e.message
        }
    }

    @Test func defaultsMatchTheServerAndTheOriginalApp() throws {
        let tree = try TempTree()
        let c = try configure([], in: tree)
        let base = ServerConfig()
        #expect(c.server.host == "127.0.0.1")
        #expect(c.server.port == 8080)
        #expect(c.server.publicDir == tree.root + "/public")
        // The original app's pace, after a 3-2-1 countdown.
        #expect(c.server.schedule == RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 400), countdownMs: 3000))
        #expect(c.server.maxMessageBytes == 4096)
        #expect(c.server.loadingNoticeMs == 250)
        #expect(c.server.outboundQueueLimit == 64)
        #expect(c.server.maxConnections == base.maxConnections)
        #expect(c.server.maxRooms == base.maxRooms)
        #expect(c.server.roomIdleMs == base.roomIdleMs)
        #expect(c.server.roomCreationBurst == base.roomCreationBurst)
        #expect(c.server.roomCreationPerMinute == base.roomCreationPerMinute)
        #expect(c.server.allowedOrigins.isEmpty)
        #expect(c.server.tlsCertPath == nil && c.server.tlsKeyPath == nil)
        #expect(c.usersURL == "file://" + tree.root + "/defaults/users.json")
        #expect(c.lotteryURL == "file://" + tree.root + "/defaults/usersInLottery.json")
        #expect(c.fetch == CurlHTTPClient.Configuration(connectTimeout: .seconds(5), totalTimeout: .seconds(15), maxResponseBytes: 1_048_576))
        #expect(c.dataDirectory == tree.root + "/data")   // recording is on by default
        #expect(c.lobbyKey == .file(LobbyKeyFile(path: tree.root + "/data/lobby.key"), createIfMissing: true, rotate: false))
        #expect(c.logLevel == .info)
        #expect(c.logFormat == .text)
        #expect(c.realtimePriority == nil)   // the normal policy unless asked for
        #expect(c.server.shutdownGraceMs == base.shutdownGraceMs)
        // A default draw (players within the fetch timeout, then its rounds and result) fits.
        #expect(c.server.shutdownGraceMs > 15_000 + RoundSchedule.original.finishOffsetMs)
    }

    @Test func everyOptionReachesTheConfiguration() throws {
        let tree = try TempTree()
        try FileManager.default.createDirectory(atPath: tree.root + "/web", withIntermediateDirectories: true)
        try tree.write("cert.pem", "-----BEGIN CERTIFICATE-----\n")
        try tree.write("key.pem", "-----BEGIN PRIVATE KEY-----\n")
        let c = try configure([
            "--host", "0.0.0.0", "--port", "0", "--public-dir", "web",
            "--users-url", "https://example.com/u.json", "--lottery-url", "http://example.com/l.json",
            "--round-interval-ms", "100", "--rounds", "5", "--decelerate-to-ms", "500", "--countdown-ms", "2500", "--loading-notice-ms", "0",
            "--fetch-connect-timeout-ms", "250", "--fetch-timeout-ms", "900", "--fetch-max-bytes", "2048",
            "--fetch-redirects", "any", "--max-message-bytes", "512", "--outbound-queue", "8", "--close-timeout-seconds", "7",
            "--idle-ping-seconds", "4", "--idle-timeout-seconds", "9", "--heartbeat-seconds", "2",
            "--max-connections", "10", "--head-timeout-ms", "2500", "--slow-heads-per-address", "3",
            "--max-rooms", "50", "--room-idle-seconds", "90", "--room-creation-burst", "3", "--room-creation-per-minute", "2",
            "--allowed-origins", " https://a.example , http://B.example:8080,,",
            "--tls-cert", "cert.pem", "--tls-key", "key.pem", "--data-dir", "records/../db", "--log-level", "debug",
            "--lobby-key-file", "secrets/lobby.key", "--rotate-lobby-key",
            "--shutdown-grace-ms", "1234", "--log-format", "json", "--realtime-priority", "12",
        ], in: tree)
        #expect(c.server.host == "0.0.0.0")
        #expect(c.server.port == 0)
        #expect(c.server.publicDir == tree.root + "/web")
        #expect(c.server.schedule == RoundSchedule(rounds: 5, pace: .decelerating(firstMs: 100, lastMs: 500), countdownMs: 2500))
        #expect(c.server.loadingNoticeMs == 0)
        #expect(c.usersURL == "https://example.com/u.json")
        #expect(c.lotteryURL == "http://example.com/l.json")
        #expect(c.fetch == CurlHTTPClient.Configuration(connectTimeout: .milliseconds(250), totalTimeout: .milliseconds(900),
                                                        maxResponseBytes: 2048, redirects: .any))
        #expect(c.server.maxMessageBytes == 512)
        #expect(c.server.outboundQueueLimit == 8)
        #expect(c.server.closeHandshakeSeconds == 7)
        #expect(c.server.idlePingSeconds == 4)
        #expect(c.server.idleTimeoutSeconds == 9)
        #expect(c.server.heartbeatSeconds == 2)
        #expect(c.server.maxConnections == 10)
        #expect(c.server.headTimeoutMs == 2500)
        #expect(c.server.slowHeadsPerAddress == 3)
        #expect(c.server.maxRooms == 50)
        #expect(c.server.roomIdleMs == 90_000)
        #expect(c.server.roomCreationBurst == 3)
        #expect(c.server.roomCreationPerMinute == 2)
        #expect(c.server.allowedOrigins == ["https://a.example", "http://b.example:8080"])
        #expect(c.server.tlsCertPath == tree.root + "/cert.pem")
        #expect(c.server.tlsKeyPath == tree.root + "/key.pem")
        #expect(c.dataDirectory == tree.root + "/db")   // absolute, may not exist yet
        #expect(c.lobbyKey == .file(LobbyKeyFile(path: tree.root + "/secrets/lobby.key"), createIfMissing: false, rotate: true))
        #expect(c.logLevel == .debug)
        #expect(c.server.shutdownGraceMs == 1234)
        #expect(c.logFormat == .json)
        #expect(c.realtimePriority == 12)
    }

    @Test func fixedIntervalWithoutDeceleration() throws {
        let c = try configure(["--round-interval-ms", "0", "--rounds", "1", "--countdown-ms", "0"], in: TempTree())
        #expect(c.server.schedule == RoundSchedule(rounds: 1, pace: .fixed(intervalMs: 0)))
    }

    @Test(arguments: [
        (["--port", "65536"], "--port must be between 0 and 65535, not 65536"),
        (["--port=-1"], "--port must be between 0 and 65535, not -1"),
        (["--rounds", "0"], "--rounds must be between 1 and 100, not 0"),
        (["--round-interval-ms", "60001"], "--round-interval-ms must be between 0 and 60000, not 60001"),
        (["--decelerate-to-ms=-5"], "--decelerate-to-ms must be between 0 and 60000, not -5"),
        (["--countdown-ms", "60001"], "--countdown-ms must be between 0 and 60000, not 60001"),
        (["--frame-ancestors", "https://a.example; script-src *"],
         "--frame-ancestors: 'https://a.example; script-src *' is not an origin like https://draw.example.com (scheme and host, no path)"),
        (["--fetch-timeout-ms", "0"], "--fetch-timeout-ms must be between 1 and 600000, not 0"),
        (["--fetch-connect-timeout-ms", "0"], "--fetch-connect-timeout-ms must be between 1 and 600000, not 0"),
        (["--fetch-max-bytes", "0"], "--fetch-max-bytes must be between 1 and 268435456, not 0"),
        (["--max-message-bytes", "10"], "--max-message-bytes must be between 128 and 1048576, not 10"),
        (["--outbound-queue", "0"], "--outbound-queue must be between 1 and 100000, not 0"),
        (["--close-timeout-seconds", "0"], "--close-timeout-seconds must be between 1 and 60, not 0"),
        (["--close-timeout-seconds", "61"], "--close-timeout-seconds must be between 1 and 60, not 61"),
        (["--idle-ping-seconds", "0"], "--idle-ping-seconds must be between 1 and 3600, not 0"),
        (["--idle-timeout-seconds", "7201"], "--idle-timeout-seconds must be between 2 and 7200, not 7201"),
        (["--idle-ping-seconds", "30", "--idle-timeout-seconds", "30"],
         "--idle-timeout-seconds (30) must be more than --idle-ping-seconds (30)"),
        (["--heartbeat-seconds", "0"], "--heartbeat-seconds must be between 1 and 10, not 0"),
        (["--heartbeat-seconds", "11"], "--heartbeat-seconds must be between 1 and 10, not 11"),
        (["--realtime-priority", "100"], "--realtime-priority must be between 0 and 99, not 100"),
        (["--realtime-priority=-1"], "--realtime-priority must be between 0 and 99, not -1"),
        (["--loading-notice-ms", "60001"], "--loading-notice-ms must be between 0 and 60000, not 60001"),
        (["--max-connections", "0"], "--max-connections must be between 1 and 1000000, not 0"),
        (["--head-timeout-ms", "5"], "--head-timeout-ms must be between 100 and 600000, not 5"),
        (["--slow-heads-per-address=-1"], "--slow-heads-per-address must be between 0 and 1000000, not -1"),
        (["--max-rooms", "0"], "--max-rooms must be between 1 and 1000000, not 0"),
        (["--room-idle-seconds", "0"], "--room-idle-seconds must be between 1 and 31536000, not 0"),
        (["--room-idle-seconds", "31536001"], "--room-idle-seconds must be between 1 and 31536000, not 31536001"),
        (["--room-creation-burst", "0"], "--room-creation-burst must be between 1 and 1000000, not 0"),
        (["--room-creation-per-minute", "0"], "--room-creation-per-minute must be between 1 and 1000000, not 0"),
        (["--shutdown-grace-ms=-1"], "--shutdown-grace-ms must be between 0 and 600000, not -1"),
        (["--shutdown-grace-ms", "600001"], "--shutdown-grace-ms must be between 0 and 600000, not 600001"),
        (["--redis-history-hours", "0"], "--redis-history-hours must be between 1 and 87600, not 0"),
        (["--redis-history-hours", "87601"], "--redis-history-hours must be between 1 and 87600, not 87601"),
        (["--redis-history-seconds", "0"], "--redis-history-seconds must be between 1 and 315360000, not 0"),
        (["--redis-history-seconds", "315360001"], "--redis-history-seconds must be between 1 and 315360000, not 315360001"),
        (["--redis-history-per-room", "0"], "--redis-history-per-room must be between 1 and 1000000, not 0"),
        (["--redis-history-per-room", "1000001"], "--redis-history-per-room must be between 1 and 1000000, not 1000001"),
        (["--max-redraws=-1"], "--max-redraws must be between 0 and 100, not -1"),
        (["--max-redraws", "101"], "--max-redraws must be between 0 and 100, not 101"),
    ])
    func outOfRangeNumbersAreRefused(arguments: [String], message: String) throws {
        #expect(try error(arguments, in: TempTree()) == message)
    }

    /// Issue 44: the retention window in hours, or in seconds for tests, and the per-room cap,
    /// at their largest without overflow (ten years of milliseconds fit an Int64 many times).
    @Test func theRedisHistoryWindowAndCapAreTakenAtTheirBounds() throws {
        #expect(try configure([], in: TempTree()).historyRetention == HistoryRetention.standard)
        let longest = try configure(["--redis-history-hours", "87600", "--redis-history-per-room", "1000000"], in: TempTree())
        #expect(longest.historyRetention == HistoryRetention(windowMs: 87_600 * 3_600_000, perRoom: 1_000_000))
        // Seconds win over hours: what the soak and the tests use.
        let short = try configure(["--redis-history-hours", "5", "--redis-history-seconds", "300"], in: TempTree())
        #expect(short.historyRetention.windowMs == 300_000)
    }

    /// Issue 37: redraws of a giveaway are limited, 3 by default; 0 switches them off.
    @Test func theRedrawLimitIsTakenAtItsBounds() throws {
        #expect(try configure([], in: TempTree()).server.maxRedraws == 3)
        #expect(try configure(["--max-redraws", "0"], in: TempTree()).server.maxRedraws == 0)
        #expect(try configure(["--max-redraws", "100"], in: TempTree()).server.maxRedraws == 100)
    }

    @Test func redirectsFollowTheSameOriginUnlessToldOtherwise() throws {
        #expect(try configure([], in: TempTree()).fetch.redirects == .sameOrigin)
        #expect(try configure(["--fetch-redirects", "none"], in: TempTree()).fetch.redirects == RedirectPolicy.none)
        #expect(try error(["--fetch-redirects", "all"], in: TempTree())
                == "--fetch-redirects must be one of none, same-origin, any, not 'all'")
    }

    @Test func aURLAsHostIsRefused() throws {
        #expect(try error(["--host", "http://0.0.0.0"], in: TempTree())
            == "--host takes an address such as 127.0.0.1 or 0.0.0.0, not 'http://0.0.0.0'")
    }

    @Test func missingPublicDirIsRefused() throws {
        let tree = try TempTree()
        try tree.remove("public")
        // Left at its default, the page is searched for where a packaged server keeps it; none found.
        #expect(try error([], in: tree)?.hasPrefix("--public-dir: the page (public/) is in none of \(tree.root)/public") == true)
        #expect(try error(["--public-dir", "web"], in: tree)?.hasPrefix("--public-dir: \(tree.root)/web is not a directory") == true)
    }

    @Test func sourceURLSchemesAreChecked() throws {
        let tree = try TempTree()
        #expect(try error(["--users-url", "ftp://example.com/u.json"], in: tree) == "--users-url must use http, https or file, not 'ftp'")
        #expect(try error(["--lottery-url", "example.com/l.json"], in: tree)
            == "--lottery-url must be an http, https or file URL, like https://example.com/users.json")
        #expect(try error(["--users-url", "https:///u.json"], in: tree) == "--users-url has no host name after https://")
    }

    @Test func aFileSourceMustBeReadable() throws {
        let tree = try TempTree()
        #expect(try error(["--users-url", "file:///nonexistent/u.json"], in: tree)
            == "--users-url: cannot read /nonexistent/u.json (missing or no permission)")
        let path = try tree.write("mine.json", "{}")
        #expect(try configure(["--users-url", "file://" + path], in: tree).usersURL == "file://" + path)
    }

    @Test func credentialsInASourceURLAreNeverEchoed() throws {
        let message = try error(["--users-url", "gopher://user:s3cret@example.com/"], in: TempTree())
        #expect(message != nil)
        #expect(message?.contains("s3cret") == false)
    }

    @Test func missingDefaultsSayWhereTheyWereLookedFor() throws {
        let tree = try TempTree()
        try tree.remove("defaults/usersInLottery.json")
        let message = try error([], in: tree)
        #expect(message?.hasPrefix("no --lottery-url given and the bundled usersInLottery.json is not in \(tree.root)/defaults") == true)
        // An explicit URL makes the missing default irrelevant.
        #expect(try error(["--lottery-url", "https://example.com/l.json"], in: tree) == nil)
    }

    @Test func defaultsAreAlsoFoundBesideTheExecutable() throws {
        let checkout = try TempTree()
        let elsewhere = try TempTree()
        try elsewhere.remove("defaults/users.json")
        let paths = LaunchPaths(currentDirectory: elsewhere.root, executablePath: checkout.root + "/live-draw")
        let c = try LaunchConfiguration(options: LaunchOptions.parse([]), paths: paths)
        #expect(c.usersURL == "file://" + checkout.root + "/defaults/users.json")
        #expect(c.lotteryURL == "file://" + elsewhere.root + "/defaults/usersInLottery.json")
    }

    @Test func tlsNeedsBothReadablePEMFiles() throws {
        let tree = try TempTree()
        try tree.write("cert.pem", "-----BEGIN CERTIFICATE-----\n")
        try tree.write("key.der", "\u{30}\u{82}binary")
        #expect(try error(["--tls-cert", "cert.pem"], in: tree) == "--tls-cert needs --tls-key as well")
        #expect(try error(["--tls-key", "cert.pem"], in: tree) == "--tls-key needs --tls-cert as well")
        #expect(try error(["--tls-cert", "cert.pem", "--tls-key", "gone.pem"], in: tree)
            == "--tls-key: cannot read \(tree.root)/gone.pem (missing or no permission)")
        #expect(try error(["--tls-cert", "cert.pem", "--tls-key", "key.der"], in: tree)
            == "--tls-key: \(tree.root)/key.der is not a PEM file (no -----BEGIN line)")
    }

    @Test func aFileAsDataDirIsRefused() throws {
        let tree = try TempTree()
        try tree.write("records", "not a folder")
        #expect(try error(["--data-dir", "records"], in: tree) == "--data-dir: \(tree.root)/records exists and is not a directory")
    }

    @Test func badOriginsAreRefused() throws {
        let tree = try TempTree()
        #expect(try error(["--allowed-origins", "https://a.example/"], in: tree)
            == "--allowed-origins: 'https://a.example/' is not an origin like https://draw.example.com (scheme and host, no path)")
        #expect(try error(["--allowed-origins", "a.example"], in: tree) != nil)
        #expect(try error(["--allowed-origins", "https://"], in: tree) != nil)
    }

    @Test func aRedisURLTurnsClusterModeOnAndABadOneIsOneLine() throws {
        let tree = try TempTree()
        #expect(try configure([], in: tree).redisURL == nil)
        let url = try #require(try configure(["--redis-url", "redis://:pw@10.0.0.5:6380/2"], in: tree).redisURL)
        #expect(url == RedisURL(host: "10.0.0.5", port: 6380, password: "pw", database: 2))
        let bad = try #require(try error(["--redis-url", "redis://:s3cret@host:99999"], in: tree))
        #expect(bad.hasPrefix("--redis-url: bad port"))
        #expect(!bad.contains("s3cret") && !bad.contains("\n"))
        #expect(try error(["--redis-url", "rediss://host"], in: tree)?.hasPrefix("--redis-url: rediss:// (TLS) is not supported") == true)
        #expect(try error(["--redis-url", "redis://host", "--data-dir", "off"], in: tree)
            == "--redis-url needs --data-dir: each node keeps the records of the draws it ran there")
    }

    /// `--beacon-url` and `--beacon-chain`: both or neither, checked, and normalised here, the one
    /// place they are (the drand client takes them as they are): no trailing slash, a lowercase hash.
    @Test func theBeaconOptionsAreCheckedAndNormalisedWhereTheyAreRead() throws {
        let tree = try TempTree()
        #expect(try configure([], in: tree).beacon == nil)
        let chain = String(repeating: "Ab", count: 32)
        let beacon = try #require(try configure(["--beacon-url", "https://relay.example/drand//", "--beacon-chain", chain],
                                                in: tree).beacon)
        #expect(beacon.url == "https://relay.example/drand")
        #expect(beacon.chainHash == chain.lowercased())
        #expect(beacon.marginMs == 2_000 && beacon.waitMs == 5_000)
        #expect(try error(["--beacon-url", "https://relay.example"], in: tree)?.hasPrefix("--beacon-url needs --beacon-chain") == true)
        #expect(try error(["--beacon-chain", chain], in: tree)?.hasPrefix("--beacon-chain needs --beacon-url") == true)
        #expect(try error(["--beacon-url", "ftp://relay.example", "--beacon-chain", chain], in: tree)
            == "--beacon-url must be an http or https URL, not ftp://relay.example")
        #expect(try error(["--beacon-url", "https://relay.example", "--beacon-chain", "abc"], in: tree)?
            .hasPrefix("--beacon-chain must be a chain hash") == true)
    }

    /// `--cluster-secret-file`: the lobby key file's rules where they fit (issue 27, finding 5).
    @Test func theClusterSecretFileMustExistBeOwnerOnlyAndLongEnough() throws {
        let tree = try TempTree()
        let redis = ["--redis-url", "redis://127.0.0.1:6379"]
        #expect(try configure(redis, in: tree).clusterSeal == nil)
        let good = try tree.write("cluster.secret", String(repeating: "ab", count: 32) + "\n")
        chmod(good, 0o600)
        #expect(try configure(redis + ["--cluster-secret-file", "cluster.secret"], in: tree).clusterSeal != nil)

        let missing = try #require(try error(redis + ["--cluster-secret-file", "nope.secret"], in: tree))
        #expect(missing.hasPrefix("--cluster-secret-file: the cluster secret file \(tree.root)/nope.secret does not exist"))

        chmod(good, 0o640)
        let exposed = try #require(try error(redis + ["--cluster-secret-file", good], in: tree))
        #expect(exposed.contains("accessible by group or others (mode 640)"))

        // 31 bytes after the final newline is trimmed: short, and the message never quotes them.
        let short = try tree.write("short.secret", String(repeating: "x", count: 31) + "\n")
        chmod(short, 0o600)
        let tooShort = try #require(try error(redis + ["--cluster-secret-file", short], in: tree))
        #expect(tooShort.contains("holds 31 bytes, fewer than 32") && !tooShort.contains("xxx") && !tooShort.contains("\n"))

        #expect(try error(["--cluster-secret-file", short], in: tree)
            == "--cluster-secret-file needs --redis-url: it authenticates the events between a cluster's nodes")
    }
}
