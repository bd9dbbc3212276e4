import DrawCore
import DrawData
import DrawServer
import Foundation
import Logging

/// Everything the executable needs to start, checked: what `LaunchOptions` become once every
/// value is in range and every file it names is there.
///
/// Checking here, before any socket or thread exists, is what lets a bad configuration fail
/// with one line instead of a half-started server.
public struct LaunchConfiguration: Sendable {
    /// The server's configuration (host, port, limits, TLS, schedule).
    public var server: ServerConfig
    /// Where the user list and the lottery list are fetched from (http, https or file URLs).
    public var usersURL: String
    public var lotteryURL: String
    /// Timeouts and size cap of those fetches.
    public var fetch: CurlHTTPClient.Configuration
    /// The rules of rooms' list URLs (`--allowed-source-hosts`, `--allow-private-sources`);
    /// `nil` when no host is allowed (room URLs off).
    public var sourceRestriction: SourceRestriction?
    /// Absolute folder of the draw records, or `nil` to keep none.
    public var dataDirectory: String?
    /// Where the lobby's host key comes from.
    public var lobbyKey: LobbyKeySetting
    /// Least severe level logged.
    public var logLevel: Logger.Level
    /// The Redis of cluster mode (`--redis-url`), or `nil` for a single node (the default).
    public var redisURL: RedisURL?
    /// The MAC of cluster mode's envelopes, from `--cluster-secret-file`; `nil`: unauthenticated.
    public var clusterSeal: EnvelopeSeal?
    /// How long Redis keeps an ended draw, and how many lines a room (issue 44).
    public var historyRetention = HistoryRetention.standard
    /// Text or one JSON object per line.
    public var logFormat: LogFormat
    /// The beacon draws commit to (`--beacon-url`, `--beacon-chain`); `nil`: the seed alone.
    public var beacon: BeaconOption?
    /// The SCHED_FIFO priority of the thread that runs the server (`--realtime-priority`), or
    /// `nil` for the normal policy (the default).
    public var realtimePriority: Int?

    /// Ranges accepted for the numeric options (the schedule's come from `RoundSchedule`).
    /// Generous, but they catch a missing digit or a unit mix-up (seconds typed as ms).
    public enum Limits {
        public static let port = 0...65_535
        public static let fetchTimeoutMs = 1...600_000
        public static let fetchMaxBytes = 1...(256 << 20)
        public static let maxMessageBytes = 128...(1 << 20)
        public static let outboundQueue = 1...100_000
        public static let closeTimeoutSeconds = 1...60
        public static let maxConnections = 1...1_000_000
        /// lws keeps both in 16 bits; an hour is plenty for a NAT to forget a connection.
        public static let idlePingSeconds = 1...3600
        public static let idleTimeoutSeconds = 2...7200
        /// At most 10: the page treats 15 s of silence as a lost connection, and a quiet room's
        /// viewers hear a heartbeat within the interval plus the server's one-second tick. No 0:
        /// without heartbeats every page would take a quiet room for a lost connection.
        public static let heartbeatSeconds = 1...10
        public static let headTimeoutMs = 100...600_000
        /// Up to ten minutes: longer than any orchestrator waits before it kills.
        public static let shutdownGraceMs = 0...600_000
        public static let slowHeadsPerAddress = 0...1_000_000
        public static let loadingNoticeMs = 0...60_000
        public static let maxRooms = 1...1_000_000
        /// Up to a year.
        public static let roomIdleSeconds = 1...31_536_000
        /// Up to ten years.
        public static let roomExpiryDays = 1...3650
        public static let roomExpirySeconds = 1...315_360_000
        public static let roomCreationBurst = 1...1_000_000
        /// Up to ten years.
        public static let redisHistoryHours = 1...87_600
        public static let redisHistorySeconds = 1...315_360_000
        public static let redisHistoryPerRoom = 1...1_000_000
        public static let roomCreationPerMinute = 1...1_000_000
        /// 0 is off; the rest are SCHED_FIFO's priorities.
        public static let realtimePriority = 0...ServiceThreadScheduling.priorities.upperBound
    }

    /// Validates `options`, resolving relative paths and the default lists with `paths`.
    public init(options o: LaunchOptions, paths: LaunchPaths) throws(ConfigurationError) {
        var server = ServerConfig()
        server.host = try Self.host(o.host)
        server.port = try Self.check(o.port, in: Limits.port, "port")
        server.publicDir = try Self.publicDir(o.publicDir, paths: paths)
        server.schedule = try Self.schedule(o)
        server.loadingNoticeMs = try Self.check(o.loadingNoticeMs, in: Limits.loadingNoticeMs, "loading-notice-ms")
        server.maxMessageBytes = try Self.check(o.maxMessageBytes, in: Limits.maxMessageBytes, "max-message-bytes")
        server.outboundQueueLimit = try Self.check(o.outboundQueue, in: Limits.outboundQueue, "outbound-queue")
        server.closeHandshakeSeconds = try Self.check(o.closeTimeoutSeconds, in: Limits.closeTimeoutSeconds, "close-timeout-seconds")
        (server.idlePingSeconds, server.idleTimeoutSeconds) = try Self.idle(ping: o.idlePingSeconds, timeout: o.idleTimeoutSeconds)
        server.heartbeatSeconds = try Self.check(o.heartbeatSeconds, in: Limits.heartbeatSeconds, "heartbeat-seconds")
        server.shutdownGraceMs = try Self.check(o.shutdownGraceMs, in: Limits.shutdownGraceMs, "shutdown-grace-ms")
        server.maxConnections = try Self.check(o.maxConnections, in: Limits.maxConnections, "max-connections")
        server.eventLoop = o.eventLoop.eventLoop
        server.headTimeoutMs = try Self.check(o.headTimeoutMs, in: Limits.headTimeoutMs, "head-timeout-ms")
        server.slowHeadsPerAddress = try Self.check(o.slowHeadsPerAddress, in: Limits.slowHeadsPerAddress, "slow-heads-per-address")
        server.maxRooms = try Self.check(o.maxRooms, in: Limits.maxRooms, "max-rooms")
        // In range, so the product fits: a year is 3.2e10 ms.
        server.roomIdleMs = try Self.check(o.roomIdleSeconds, in: Limits.roomIdleSeconds, "room-idle-seconds") * 1000
        server.roomExpiryMs = try Self.roomExpiryMs(days: o.roomExpiryDays, seconds: o.roomExpirySeconds)
        server.roomCreationBurst = try Self.check(o.roomCreationBurst, in: Limits.roomCreationBurst, "room-creation-burst")
        server.roomCreationPerMinute = Double(try Self.check(o.roomCreationPerMinute, in: Limits.roomCreationPerMinute,
                                                             "room-creation-per-minute"))
        server.allowedOrigins = try Self.origins(o.allowedOrigins)
        server.frameAncestors = try Self.origins(o.frameAncestors, option: "frame-ancestors")
        (server.tlsCertPath, server.tlsKeyPath) = try Self.tls(cert: o.tlsCert, key: o.tlsKey, paths: paths)
        server.entrantListReader = UploadedEntrantList(limits: try Self.entrantLimits(o), today: UploadedEntrantList.utcToday)
        server.roomSettingsLimits = try Self.roomSettingsLimits(o)
        server.maxRedraws = try Self.check(o.maxRedraws, in: Limits.maxRedraws, "max-redraws")
        sourceRestriction = try Self.sourceRestriction(o)
        self.server = server

        usersURL = try SourceURL.resolve(o.usersURL, option: "users-url", bundled: "users.json", paths: paths)
        lotteryURL = try SourceURL.resolve(o.lotteryURL, option: "lottery-url", bundled: "usersInLottery.json", paths: paths)

        fetch = CurlHTTPClient.Configuration(
            connectTimeout: .milliseconds(try Self.check(o.fetchConnectTimeoutMs, in: Limits.fetchTimeoutMs, "fetch-connect-timeout-ms")),
            totalTimeout: .milliseconds(try Self.check(o.fetchTimeoutMs, in: Limits.fetchTimeoutMs, "fetch-timeout-ms")),
            maxResponseBytes: try Self.check(o.fetchMaxBytes, in: Limits.fetchMaxBytes, "fetch-max-bytes"),
            redirects: try Self.redirects(o.fetchRedirects))
        dataDirectory = o.dataDir == LaunchOptions.recordingOff ? nil : try Self.dataDirectory(o.dataDir, paths: paths)
        lobbyKey = try Self.lobbyKey(file: o.lobbyKeyFile, rotate: o.rotateLobbyKey, dataDirectory: dataDirectory, paths: paths)
        logLevel = o.logLevel.loggerLevel
        redisURL = try Self.redis(o.redisURL, dataDirectory: dataDirectory)
        clusterSeal = try Self.clusterSeal(o.clusterSecretFile, redis: redisURL, paths: paths)
        historyRetention = try Self.retention(hours: o.redisHistoryHours, seconds: o.redisHistorySeconds,
                                              perRoom: o.redisHistoryPerRoom)
        logFormat = o.logFormat
        let realtime = try Self.check(o.realtimePriority, in: Limits.realtimePriority, "realtime-priority")
        realtimePriority = realtime == 0 ? nil : realtime
        beacon = try Self.beacon(o)
    }

    /// Cluster mode needs the storage thread, which only a data directory gives: it is where a
    /// node keeps its own audit log of the draws it ran, and the thread that may wait for Redis.
    private static func redis(_ text: String?, dataDirectory: String?) throws(ConfigurationError) -> RedisURL? {
        guard let text else { return nil }
        let url: RedisURL
        do { url = try RedisURL(parsing: text) } catch { throw ConfigurationError("--redis-url: \(error)") }
        guard dataDirectory != nil else {
            throw ConfigurationError("--redis-url needs --data-dir: each node keeps the records of the draws it ran there")
        }
        return url
    }

    private static func retention(hours: Int, seconds: Int?, perRoom: Int) throws(ConfigurationError) -> HistoryRetention {
        let windowMs: Int64
        if let seconds {
            windowMs = Int64(try check(seconds, in: Limits.redisHistorySeconds, "redis-history-seconds")) * 1000
        } else {
            windowMs = Int64(try check(hours, in: Limits.redisHistoryHours, "redis-history-hours")) * 3_600_000
        }
        return HistoryRetention(windowMs: windowMs, perRoom: try check(perRoom, in: Limits.redisHistoryPerRoom, "redis-history-per-room"))
    }

    /// The cluster's secret, read now: a missing, exposed or short file stops the start here.
    private static func clusterSeal(_ file: String?, redis: RedisURL?, paths: LaunchPaths) throws(ConfigurationError) -> EnvelopeSeal? {
        guard let file else { return nil }
        guard redis != nil else {
            throw ConfigurationError("--cluster-secret-file needs --redis-url: it authenticates the events between a cluster's nodes")
        }
        do { return try ClusterSecretFile.load(path: paths.absolute(file)) } catch {
            throw ConfigurationError("--cluster-secret-file: \(error)")
        }
    }

    /// The operator's file wins; else the data directory's; else a key per process, which
    /// `--rotate-lobby-key` has nothing to rotate in. The file itself is read at start, once the
    /// data directory is the process's.
    private static func lobbyKey(file: String?, rotate: Bool, dataDirectory: String?,
                                 paths: LaunchPaths) throws(ConfigurationError) -> LobbyKeySetting {
        if let file {
            let path = paths.absolute(file)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw ConfigurationError("--lobby-key-file: \(path) is a directory, not a key file")
            }
            return .file(LobbyKeyFile(path: path), createIfMissing: false, rotate: rotate)
        }
        if let dataDirectory {
            return .file(LobbyKeyFile(dataDirectory: dataDirectory), createIfMissing: true, rotate: rotate)
        }
        if rotate {
            throw ConfigurationError("--rotate-lobby-key has no key file to write: with --data-dir off the lobby key "
                                     + "is per-process already; give --lobby-key-file to keep one")
        }
        return .perProcess
    }

    static func check(_ value: Int, in range: ClosedRange<Int>, _ option: String) throws(ConfigurationError) -> Int {
        guard range.contains(value) else {
            throw ConfigurationError("--\(option) must be between \(range.lowerBound) and \(range.upperBound), not \(value)")
        }
        return value
    }

    /// The room expiry in milliseconds: `seconds` (for tests) when given, else `days`.
    private static func roomExpiryMs(days: Int, seconds: Int?) throws(ConfigurationError) -> Double {
        if let seconds { return Double(try check(seconds, in: Limits.roomExpirySeconds, "room-expiry-seconds")) * 1000 }
        return Double(try check(days, in: Limits.roomExpiryDays, "room-expiry-days")) * 86_400_000
    }

    /// The timeout must leave the client time to answer the ping, or every quiet client would
    /// be dropped unasked.
    private static func idle(ping: Int, timeout: Int) throws(ConfigurationError) -> (Int, Int) {
        let ping = try check(ping, in: Limits.idlePingSeconds, "idle-ping-seconds")
        let timeout = try check(timeout, in: Limits.idleTimeoutSeconds, "idle-timeout-seconds")
        guard timeout > ping else {
            throw ConfigurationError("--idle-timeout-seconds (\(timeout)) must be more than --idle-ping-seconds (\(ping))")
        }
        return (ping, timeout)
    }

    private static func redirects(_ value: String) throws(ConfigurationError) -> RedirectPolicy {
        guard let policy = RedirectPolicy(rawValue: value) else {
            let names = RedirectPolicy.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError("--fetch-redirects must be one of \(names), not '\(value)'")
        }
        return policy
    }

    /// An address or a host name; a URL here is the usual slip (`--host http://0.0.0.0`).
    private static func host(_ value: String) throws(ConfigurationError) -> String {
        guard !value.isEmpty, !value.contains("/"), !value.contains(where: \.isWhitespace) else {
            throw ConfigurationError("--host takes an address such as 127.0.0.1 or 0.0.0.0, not '\(value)'")
        }
        return value
    }

    /// The page's folder: as given, or, left at its default, the first bundled `public/` found
    /// (the working directory, beside the binary, `PREFIX/share/live-draw/public`).
    private static func publicDir(_ value: String, paths: LaunchPaths) throws(ConfigurationError) -> String {
        func isDirectory(_ path: String) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        }
        if value == LaunchOptions.defaultPublicDir {
            let folders = paths.publicFolders
            if let found = folders.first(where: isDirectory) { return found }
            throw ConfigurationError("--public-dir: the page (public/) is in none of \(folders.joined(separator: ", ")); "
                                     + "install it (make install) or pass --public-dir")
        }
        let path = paths.absolute(value)
        guard isDirectory(path) else {
            throw ConfigurationError("--public-dir: \(path) is not a directory")
        }
        return path
    }

    /// May not exist yet (the store creates it), but must not be something else, such as a file.
    private static func dataDirectory(_ value: String, paths: LaunchPaths) throws(ConfigurationError) -> String {
        let path = paths.absolute(value)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw ConfigurationError("--data-dir: \(path) exists and is not a directory")
        }
        return path
    }

    private static func schedule(_ o: LaunchOptions) throws(ConfigurationError) -> RoundSchedule {
        let rounds = try check(o.rounds, in: RoundSchedule.roundLimit, "rounds")
        let first = try check(o.roundIntervalMs, in: RoundSchedule.intervalLimit, "round-interval-ms")
        let pace: RoundSchedule.Pace
        if let last = o.decelerateToMs {
            pace = .decelerating(firstMs: first, lastMs: try check(last, in: RoundSchedule.intervalLimit, "decelerate-to-ms"))
        } else {
            pace = .fixed(intervalMs: first)
        }
        // Both values were range-checked above, so this cannot fail unless RoundSchedule gains a
        // rule; then say so rather than crash.
        let countdown = try check(o.countdownMs, in: RoundSchedule.countdownLimit, "countdown-ms")
        guard let schedule = RoundSchedule(rounds: rounds, pace: pace, countdownMs: countdown) else {
            throw ConfigurationError("--rounds \(rounds) with these intervals is not a valid schedule")
        }
        return schedule
    }

    /// Browsers send `Origin` as `scheme://host[:port]`, lower case, no path: anything else in
    /// the list could never match, so it is refused rather than silently locking everyone out.
    /// Only host characters follow the scheme: `--frame-ancestors` goes into a CSP header, where
    /// a `;` or a quote would add a directive of its own.
    private static func origins(_ list: String, option: String = "allowed-origins") throws(ConfigurationError) -> [String] {
        let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
        for item in items {
            let rest = item.hasPrefix("https://") ? item.dropFirst(8) : item.hasPrefix("http://") ? item.dropFirst(7) : nil
            guard let rest, !rest.isEmpty, rest.allSatisfy(hostCharacters.contains) else {
                throw ConfigurationError("--\(option): '\(item)' is not an origin like https://draw.example.com (scheme and host, no path)")
            }
        }
        return items
    }

    private static func tls(cert: String?, key: String?, paths: LaunchPaths) throws(ConfigurationError) -> (String?, String?) {
        switch (cert, key) {
        case (nil, nil):
            return (nil, nil)
        case (.some, nil):
            throw ConfigurationError("--tls-cert needs --tls-key as well")
        case (nil, .some):
            throw ConfigurationError("--tls-key needs --tls-cert as well")
        case let (cert?, key?):
            return (try pemFile(cert, "tls-cert", paths), try pemFile(key, "tls-key", paths))
        }
    }

    /// A readable file that at least looks like PEM, so that swapping DER in or pointing at the
    /// wrong file fails here with the option's name, not deep inside the TLS library.
    private static func pemFile(_ value: String, _ option: String, _ paths: LaunchPaths) throws(ConfigurationError) -> String {
        let path = paths.absolute(value)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError("--\(option): cannot read \(path) (missing or no permission)")
        }
        guard String(decoding: data.prefix(64 * 1024), as: UTF8.self).contains("-----BEGIN ") else {
            throw ConfigurationError("--\(option): \(path) is not a PEM file (no -----BEGIN line)")
        }
        return path
    }
}
