import ArgumentParser
import DrawCore
import DrawData
import DrawServer

/// The command line of `live-draw`, as typed: raw values, no cross-checks.
///
/// `LaunchConfiguration` validates these and turns them into the server's configuration. Every
/// option can also come from an environment variable (see `EnvironmentArguments`); each help text
/// names its variable. Defaults are read from `ServerConfig` and `RoundSchedule.original` so that
/// the help screen can never disagree with what the server does when an option is left out.
public struct LaunchOptions: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "live-draw",
        abstract: "Run live lottery draws over WebSockets.",
        discussion: """
            Serves the page, the HTTP API and the WebSockets on one port. On start it prints the \
            viewer link and the lobby's host link (the host link holds the key that starts draws: \
            keep it private).

            Every option can also be set with an environment variable: LIVE_DRAW_ and the option's \
            name in upper case with '_' for '-' (--round-interval-ms is \
            LIVE_DRAW_ROUND_INTERVAL_MS). An option on the command line wins over its variable; \
            an empty variable counts as unset.
            """
    )

    private static let server = ServerConfig()
    private static let schedule = RoundSchedule.original
    private static let fetch = CurlHTTPClient.Configuration()

    @Option(help: "Interface to bind; loopback by default, 0.0.0.0 exposes the server. (env: LIVE_DRAW_HOST)")
    public var host: String = LaunchOptions.server.host

    @Option(help: "TCP port; 0 picks a free one. (env: LIVE_DRAW_PORT)")
    public var port: Int = LaunchOptions.server.port

    @Option(help: "Folder of the static page; nothing outside it is served [default: public/ in the working directory, beside the binary or in PREFIX/share/live-draw]. (env: LIVE_DRAW_PUBLIC_DIR)")
    public var publicDir: String = LaunchOptions.defaultPublicDir

    /// `--public-dir`'s default, which means "search the bundled places" (`LaunchPaths.publicFolders`).
    static let defaultPublicDir = LaunchOptions.server.publicDir

    @Option(name: .customLong("users-url"),
            help: "http, https or file URL of the user list [default: the bundled defaults/users.json]. (env: LIVE_DRAW_USERS_URL)")
    public var usersURL: String?

    @Option(name: .customLong("lottery-url"),
            help: "http, https or file URL of the lottery list [default: the bundled defaults/usersInLottery.json]. (env: LIVE_DRAW_LOTTERY_URL)")
    public var lotteryURL: String?

    @Option(help: "Milliseconds between two flips (the first gap, with --decelerate-to-ms). (env: LIVE_DRAW_ROUND_INTERVAL_MS)")
    public var roundIntervalMs: Int = LaunchOptions.schedule.gapMs(after: 1)

    @Option(help: "Rounds (flips) in each draw. (env: LIVE_DRAW_ROUNDS)")
    public var rounds: Int = LaunchOptions.schedule.rounds

    @Option(help: "Slow the flipping down: the gaps grow linearly from --round-interval-ms to this many milliseconds. (env: LIVE_DRAW_DECELERATE_TO_MS)")
    public var decelerateToMs: Int?

    @Option(help: "Countdown (3-2-1 on the page) between a draw's start and round 1, in milliseconds; 0 for none. (env: LIVE_DRAW_COUNTDOWN_MS)")
    public var countdownMs: Int = 3000

    @Option(help: "Most entrants in a room's own list (PUT /api/rooms/ROOM/entrants). (env: LIVE_DRAW_MAX_ENTRANTS)")
    public var maxEntrants: Int = EntrantListLimits.standard.maxEntrants

    @Option(help: "Largest entrant list upload, in bytes (the request body of PUT /api/rooms/ROOM/entrants). (env: LIVE_DRAW_MAX_UPLOAD_BYTES)")
    public var maxUploadBytes: Int = EntrantListLimits.standard.maxBodyBytes

    @Option(help: "Longest name (and username) in an uploaded list, in characters; at most 4 bytes of UTF-8 each. (env: LIVE_DRAW_MAX_NAME_CHARS)")
    public var maxNameChars: Int = EntrantListLimits.standard.maxNameCharacters

    @Option(help: "Most rounds a host may set for a room (PUT /api/rooms/ROOM/settings). (env: LIVE_DRAW_MAX_ROUNDS)")
    public var maxRounds: Int = RoomSettingsLimits.standard.maxRounds

    @Option(help: "Most winners a host may set for a room's draws. (env: LIVE_DRAW_MAX_WINNERS)")
    public var maxWinners: Int = RoomSettingsLimits.standard.maxWinners

    @Option(help: "Most redraws of one giveaway (a winner declared a no-show and redrawn; a redraw of a redraw is the second); 0 switches redraws off. Every redraw is numbered on every page. (env: LIVE_DRAW_MAX_REDRAWS)")
    public var maxRedraws: Int = ServerConfig.standardMaxRedraws

    @Option(help: "Shortest gap between flips a host may set for a room, in milliseconds. (env: LIVE_DRAW_MIN_INTERVAL_MS)")
    public var minIntervalMs: Int = RoomSettingsLimits.standard.minIntervalMs

    @Option(help: "Longest gap between flips a host may set for a room, in milliseconds. (env: LIVE_DRAW_MAX_INTERVAL_MS)")
    public var maxIntervalMs: Int = RoomSettingsLimits.standard.maxIntervalMs

    @Option(help: "Hold a draw's 'loading' message back this long; viewers skip it when the players load sooner. 0 sends it at once. (env: LIVE_DRAW_LOADING_NOTICE_MS)")
    public var loadingNoticeMs: Int = LaunchOptions.server.loadingNoticeMs

    @Option(help: "Connect timeout for fetching a player list, in milliseconds. (env: LIVE_DRAW_FETCH_CONNECT_TIMEOUT_MS)")
    public var fetchConnectTimeoutMs: Int = milliseconds(LaunchOptions.fetch.connectTimeout)

    @Option(help: "Total timeout for fetching a player list, in milliseconds. (env: LIVE_DRAW_FETCH_TIMEOUT_MS)")
    public var fetchTimeoutMs: Int = milliseconds(LaunchOptions.fetch.totalTimeout)

    @Option(help: "Largest player list accepted, in bytes. (env: LIVE_DRAW_FETCH_MAX_BYTES)")
    public var fetchMaxBytes: Int = LaunchOptions.fetch.maxResponseBytes

    @Option(help: "Which redirects a player-list fetch follows: same-origin (same scheme, host and port), any (any http/https URL), or none. (env: LIVE_DRAW_FETCH_REDIRECTS)")
    public var fetchRedirects: String = LaunchOptions.fetch.redirects.rawValue

    @Option(help: "Hosts a room's host may give list URLs on (PUT /api/rooms/ROOM/entrants with usersUrl and lotteryUrl), comma-separated names or addresses, any port; http and https only, checked again on every redirect. Empty (the default): room list URLs are off. (env: LIVE_DRAW_ALLOWED_SOURCE_HOSTS)")
    public var allowedSourceHosts: String = ""

    @Flag(help: "Let rooms' list URLs reach private, loopback, link-local, unique-local and CGNAT addresses (refused by default, checked on the address each connection goes to); its variable takes 1 or true. (env: LIVE_DRAW_ALLOW_PRIVATE_SOURCES)")
    public var allowPrivateSources = false

    @Option(help: "Largest inbound WebSocket message, in bytes; larger ones close with 1009. (env: LIVE_DRAW_MAX_MESSAGE_BYTES)")
    public var maxMessageBytes: Int = LaunchOptions.server.maxMessageBytes

    @Option(help: "Messages that may wait for one client before it is dropped as too slow (4408). (env: LIVE_DRAW_OUTBOUND_QUEUE)")
    public var outboundQueue: Int = LaunchOptions.server.outboundQueueLimit

    @Option(help: "Seconds the server waits for a client's close frame after sending its own, reading meanwhile, before it closes the socket anyway. (env: LIVE_DRAW_CLOSE_TIMEOUT_SECONDS)")
    public var closeTimeoutSeconds: Int = LaunchOptions.server.closeHandshakeSeconds

    @Option(help: "Seconds without a frame from a WebSocket client before the server pings it. (env: LIVE_DRAW_IDLE_PING_SECONDS)")
    public var idlePingSeconds: Int = LaunchOptions.server.idlePingSeconds

    @Option(help: "Seconds without a frame from a WebSocket client (pongs count) before the server drops it as gone; more than --idle-ping-seconds. (env: LIVE_DRAW_IDLE_TIMEOUT_SECONDS)")
    public var idleTimeoutSeconds: Int = LaunchOptions.server.idleTimeoutSeconds

    @Option(help: "A room that sent nothing for this many seconds sends its viewers a heartbeat, so pages can tell a quiet room from a dead connection (they give up after 15 s of silence). (env: LIVE_DRAW_HEARTBEAT_SECONDS)")
    public var heartbeatSeconds: Int = LaunchOptions.server.heartbeatSeconds

    @Option(help: "On SIGTERM the server drains: new draws are refused (503 draining), /healthz answers 503, and running draws may go on this many milliseconds to their end before they are aborted (a second SIGTERM aborts them at once). Give the container runtime at least this plus a few seconds before it kills (docker stop --time, Kubernetes terminationGracePeriodSeconds). 0 aborts at once. (env: LIVE_DRAW_SHUTDOWN_GRACE_MS)")
    public var shutdownGraceMs: Int = LaunchOptions.server.shutdownGraceMs

    @Option(help: "Simultaneous connections, HTTP and WebSocket; beyond it new ones get 503. (env: LIVE_DRAW_MAX_CONNECTIONS)")
    public var maxConnections: Int = LaunchOptions.server.maxConnections

    @Option(help: "The loop that runs libwebsockets: libev (epoll: a wake-up costs what is ready; needs the libwebsockets-evlib-ev package), or poll (lws' own loop: every wake-up polls every connection; needs nothing more). (env: LIVE_DRAW_EVENT_LOOP)")
    public var eventLoop: EventLoopChoice = .standard

    @Option(help: "Run the thread that times the rounds and sends them under SCHED_FIFO at this priority (1-99), so nothing else on the machine delays a round; 0 (the default) leaves the normal policy. Needs a real-time limit of at least the priority (ulimit -r; docker run --ulimit rtprio=N) or CAP_SYS_NICE; threads it starts stay normal. (env: LIVE_DRAW_REALTIME_PRIORITY)")
    public var realtimePriority: Int = 0

    @Option(help: "Milliseconds a client has to send a whole HTTP request (head and body) after connecting; later it gets 408. (env: LIVE_DRAW_HEAD_TIMEOUT_MS)")
    public var headTimeoutMs: Int = LaunchOptions.server.headTimeoutMs

    @Option(help: "Slow requests one address may have (sent in part, still incomplete 1 s after connecting); each further one gets 408. Requests sent in one piece never count. (env: LIVE_DRAW_SLOW_HEADS_PER_ADDRESS)")
    public var slowHeadsPerAddress: Int = LaunchOptions.server.slowHeadsPerAddress

    @Option(help: "Most rooms at once, the lobby included; at the limit a new room replaces the one unused the longest, and creating is refused only when every room is in use. (env: LIVE_DRAW_MAX_ROOMS)")
    public var maxRooms: Int = LaunchOptions.server.maxRooms

    @Option(help: "Seconds a room may stay unused (no viewers, no draw) before it is freed from memory; it stays in the data directory and comes back on its next use (with --data-dir off it is gone, name and host key). Never the lobby. (env: LIVE_DRAW_ROOM_IDLE_SECONDS)")
    public var roomIdleSeconds: Int = LaunchOptions.server.roomIdleMs / 1000

    @Option(help: "Days a room kept in the data directory may go without activity (created, a draw started, its key rotated) before it is deleted; its draw history stays. Rooms with viewers never expire; the lobby never. (env: LIVE_DRAW_ROOM_EXPIRY_DAYS)")
    public var roomExpiryDays: Int = LaunchOptions.defaultRoomExpiryDays

    @Option(help: "For tests: the room expiry in seconds, instead of --room-expiry-days. (env: LIVE_DRAW_ROOM_EXPIRY_SECONDS)")
    public var roomExpirySeconds: Int?

    @Option(help: "Rooms one client address may create at once, before --room-creation-per-minute applies; beyond, 429. (env: LIVE_DRAW_ROOM_CREATION_BURST)")
    public var roomCreationBurst: Int = LaunchOptions.server.roomCreationBurst

    @Option(help: "Rooms one client address may create per minute after its burst. (env: LIVE_DRAW_ROOM_CREATION_PER_MINUTE)")
    public var roomCreationPerMinute: Int = Int(LaunchOptions.server.roomCreationPerMinute)

    @Option(help: "Comma-separated browser origins allowed to open WebSockets, e.g. https://draw.example.com; empty allows any. (env: LIVE_DRAW_ALLOWED_ORIGINS)")
    public var allowedOrigins: String = LaunchOptions.server.allowedOrigins.joined(separator: ",")

    @Option(help: "Comma-separated origins that may show the page in a frame (a stream overlay embedded in another site), e.g. https://studio.example.com; empty allows none. (env: LIVE_DRAW_FRAME_ANCESTORS)")
    public var frameAncestors: String = ""

    @Option(help: "PEM certificate for https/wss; needs --tls-key. (env: LIVE_DRAW_TLS_CERT)")
    public var tlsCert: String?

    @Option(help: "PEM private key for https/wss; needs --tls-cert. (env: LIVE_DRAW_TLS_KEY)")
    public var tlsKey: String?

    @Option(help: "Folder of the draw records (draws.sqlite) and the lobby key (lobby.key), created if missing; one server per folder. 'off' records nothing (the history API then answers 404) and makes the lobby key per-process. (env: LIVE_DRAW_DATA_DIR)")
    public var dataDir: String = LaunchOptions.defaultDataDir

    @Option(help: "File with the lobby's host key: one key of 48 lowercase hex characters ('openssl rand -hex 24'), readable by its owner only (chmod 600); it must exist. [default: <data-dir>/lobby.key, written on the first start; with --data-dir off a new key every start] (env: LIVE_DRAW_LOBBY_KEY_FILE)")
    public var lobbyKeyFile: String?

    @Option(name: .customLong("redis-url"),
            help: "Cluster mode: redis://[[user]:password@]host[:port][/db] of the Redis shared by every node (rooms, draw leases, draw events); needs --data-dir. Unset: one node, nothing shared (the default). No TLS (rediss://). (env: LIVE_DRAW_REDIS_URL)")
    public var redisURL: String?

    @Option(help: "Cluster mode: file with the secret shared by every node (the same file on each; at least 32 bytes, 'openssl rand -hex 32'), readable by its owner only (chmod 600). Every event between nodes then carries an HMAC-SHA256 that receivers check, so whoever can publish to Redis cannot speak for a node. Only with --redis-url. Unset: events are not authenticated and Redis must be private. (env: LIVE_DRAW_CLUSTER_SECRET_FILE)")
    public var clusterSecretFile: String?

    @Option(help: "Cluster mode: hours an ended draw stays in Redis (its record, list reference and history line; 1-87600). Every node keeps its own copy of every ended draw in its data directory, so older draws are still served and verify on every node that was up when they ended. (env: LIVE_DRAW_REDIS_HISTORY_HOURS)")
    public var redisHistoryHours: Int = Int(HistoryRetention.standard.windowMs / 3_600_000)

    @Option(help: "For tests and soaks: the Redis history window in seconds, instead of --redis-history-hours. (env: LIVE_DRAW_REDIS_HISTORY_SECONDS)")
    public var redisHistorySeconds: Int?

    @Option(help: "Cluster mode: the most history lines Redis keeps per room (1-1000000); older ones are served from each node's own copy. (env: LIVE_DRAW_REDIS_HISTORY_PER_ROOM)")
    public var redisHistoryPerRoom: Int = HistoryRetention.standard.perRoom

    @Option(name: .customLong("beacon-url"),
            help: "Commit every draw to a future round of this drand beacon (http or https endpoint, e.g. https://api.drand.sh), and derive its picks from the seed and that round's randomness (docs/FAIRNESS.md section 9); needs --beacon-chain. Unset (the default): draws use the seed alone and need no network. (env: LIVE_DRAW_BEACON_URL)")
    public var beaconURL: String?

    @Option(name: .customLong("beacon-chain"),
            help: "The drand chain hash (64 hex characters) of --beacon-url; the chain's info is fetched at start and must name this hash. (env: LIVE_DRAW_BEACON_CHAIN)")
    public var beaconChain: String?

    @Option(help: "A beacon draw commits to the first round published at least this many milliseconds after it is planned (1000-60000). (env: LIVE_DRAW_BEACON_MARGIN_MS)")
    public var beaconMarginMs: Int = 2000

    @Option(help: "How long past its round's publication time a beacon draw keeps trying to fetch the round before it fails with beacon_unavailable, in milliseconds (100-60000). (env: LIVE_DRAW_BEACON_WAIT_MS)")
    public var beaconWaitMs: Int = 5000

    @Flag(help: "Write a new lobby host key to the key file at start, and say so in the startup lines; host links with the old key stop working. (no env: set in the environment, it would rotate the key at every start)")
    public var rotateLobbyKey = false

    /// Rooms expire after 90 days without activity: generous, so a yearly or quarterly event's
    /// room is still there, yet abandoned rooms do not pile up for ever.
    public static let defaultRoomExpiryDays = 90

    /// Recording is on by default: a public draw needs a public record, and a crash must not lose
    /// an announced draw. `off` is the explicit opt-out.
    public static let defaultDataDir = "data"
    /// The `--data-dir` value that turns recording off.
    public static let recordingOff = "off"

    @Option(help: "Least severe log level shown. (env: LIVE_DRAW_LOG_LEVEL)")
    public var logLevel: LogLevel = .info

    @Option(help: "text, or json: one JSON object per line (timestamp, level, label, message, metadata) for log collectors. In json the lobby's host link is left out of the log and printed once on standard error. (env: LIVE_DRAW_LOG_FORMAT)")
    public var logFormat: LogFormat = .text

    /// The long names of every option above, each of which `EnvironmentArguments` reads from
    /// `LIVE_DRAW_<NAME>`. A test checks this list against the help screen, so an option added
    /// without an environment variable fails the build's tests.
    public static let environmentBackedOptions = [
        "host", "port", "public-dir", "users-url", "lottery-url",
        "round-interval-ms", "rounds", "decelerate-to-ms", "countdown-ms",
        "max-entrants", "max-upload-bytes", "max-name-chars", "max-rounds", "max-winners", "max-redraws", "min-interval-ms", "max-interval-ms",
        "loading-notice-ms",
        "fetch-connect-timeout-ms", "fetch-timeout-ms", "fetch-max-bytes", "fetch-redirects",
        "allowed-source-hosts", "allow-private-sources",
        "max-message-bytes", "outbound-queue", "close-timeout-seconds",
        "idle-ping-seconds", "idle-timeout-seconds", "heartbeat-seconds", "shutdown-grace-ms", "max-connections", "event-loop", "realtime-priority", "head-timeout-ms",
        "slow-heads-per-address", "max-rooms", "room-idle-seconds", "room-expiry-days",
        "room-expiry-seconds", "room-creation-burst", "room-creation-per-minute",
        "allowed-origins", "frame-ancestors",
        "tls-cert", "tls-key", "data-dir", "lobby-key-file", "redis-url", "cluster-secret-file",
        "redis-history-hours", "redis-history-seconds", "redis-history-per-room",
        "beacon-url", "beacon-chain", "beacon-margin-ms", "beacon-wait-ms", "log-level", "log-format",
    ]

    /// Flags on the help screen that no environment variable sets, each for the reason its help
    /// gives. `EnvironmentArguments` supports only options that take a value.
    public static let flagsWithoutEnvironment = ["rotate-lobby-key"]

    /// Flags a variable sets after all (`EnvironmentArguments`): `1`, `true` or `yes` turn it on,
    /// `0`, `false`, `no` leave it off; any other value is an error.
    public static let environmentBackedFlags: Set<String> = ["allow-private-sources"]

    public init() {}

    /// Whole milliseconds of `d`, for showing the data layer's default timeouts as option defaults.
    static func milliseconds(_ d: Duration) -> Int {
        Int(d.components.seconds) * 1000 + Int(d.components.attoseconds / 1_000_000_000_000_000)
    }
}
