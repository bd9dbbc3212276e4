import DrawCore

/// Everything the server can be told at startup. The executable fills it from command-line
/// options and environment variables; tests fill it directly with short intervals and small limits.
public struct ServerConfig: Sendable {
    /// Interface to bind. Loopback by default: exposing the server is an explicit choice.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 asks the OS for a free one (tests), read back from `LiveDrawServer.port`.
    public var port: Int = 8080
    /// Folder of the static page. Nothing outside it is ever served.
    public var publicDir: String = "public"
    /// Round timing of every draw.
    public var schedule: RoundSchedule = .original
    /// Largest inbound WebSocket message; larger ones close the connection with 1009.
    public var maxMessageBytes: Int = 4096
    /// HTTP requests and WebSocket handshakes lws parses at once; each holds a header table
    /// (~9 KiB, sized for `RequestLimits.maxHeadBytes`) meanwhile. The front door hands lws only
    /// complete requests, at most this many at a time; the others wait their turn in its queue.
    /// lws' default (one per possible connection) let a storm of 10,000 handshakes take ~50 MB
    /// at once, which the heap then kept.
    public var headerTables: Int = 256
    /// Every request (head and body) must arrive within this many milliseconds of its accept;
    /// later, the front door answers 408 and closes (docs/PROTOCOL.md §5.4).
    public var headTimeoutMs: Int = 5000
    /// Slow requests one address (one IPv6 /64) may have: part of the request has arrived and it
    /// is still incomplete `slowHeadAfterMs` after the accept. Each one past this that turns slow
    /// is answered 408 and closed. Requests that arrive in one piece never count, however many
    /// and however late (a join storm from one address); see `ArrivalTracker`.
    public var slowHeadsPerAddress: Int = 16
    /// From when a request that has arrived in part counts as slow.
    public var slowHeadAfterMs: Int = 1000
    /// Largest HTTP request body accepted by the API (413 beyond).
    public var maxBodyBytes: Int = 16 * 1024
    /// Reads hosts' entrant lists (`PUT /api/rooms/ROOM/entrants`), within its limits (whose
    /// `maxBodyBytes` is that route's body limit, in place of `maxBodyBytes`). `nil`: rooms take
    /// no lists of their own (404 on that route).
    public var entrantListReader: (any EntrantListReader)?
    /// Fetches a room's list from the URLs its host gave (`PUT .../entrants` with `usersUrl` and
    /// `lotteryUrl`), under the operator's rules for room sources. `nil`: room URLs are off
    /// (403 `source_urls_off`).
    public var roomURLSources: (any RoomURLSources)?
    /// What a host may choose for a room (`PUT /api/rooms/ROOM/settings`).
    public var roomSettingsLimits: RoomSettingsLimits = .standard
    /// The most redraws one giveaway may have (a redraw of a redraw counts as the second; 0:
    /// redraws are off; `--max-redraws`, issue 37). Small by default: each redraw is a fresh
    /// draw, so without a limit a host could redraw "no-shows" until the person it wants wins.
    public var maxRedraws: Int = ServerConfig.standardMaxRedraws
    /// `maxRedraws`' default.
    public static let standardMaxRedraws = 3
    /// How soon and how far ahead a draw may be scheduled, and how late one may still start
    /// (issue 30, `ScheduleWindow`).
    public var scheduleWindow: ScheduleWindow = .standard
    /// Draws commit to a beacon round (`--beacon-url`, docs/FAIRNESS.md §9): its chain and timing,
    /// and where the rounds are fetched. `nil` (the default): draws use the seed alone.
    public var beacon: (settings: BeaconSettings, source: any BeaconSource)?
    /// Messages that may wait for one client; past this it is closed as too slow (4408).
    public var outboundQueueLimit: Int = 64
    /// The loop that runs libwebsockets (`EventLoop`).
    public var eventLoop: EventLoop = .standard
    /// Total simultaneous connections (HTTP and WebSocket); beyond, new ones are refused with 503.
    public var maxConnections: Int = 20_000
    /// Browser origins allowed to open WebSockets; empty allows any (scripts send no Origin).
    public var allowedOrigins: [String] = []
    /// Origins that may show the page in a frame (a stream overlay inside another site), as
    /// `frame-ancestors` of its CSP. Empty: no one (`frame-ancestors 'none'`).
    public var frameAncestors: [String] = []
    /// PEM certificate and key for TLS (wss/https); both or neither.
    public var tlsCertPath: String?
    public var tlsKeyPath: String?
    /// Inbound messages per second per connection, and the burst allowance.
    public var rateLimitPerSecond: Double = 20
    public var rateLimitBurst: Double = 40
    /// Bad messages a connection may send before it is closed with 1008.
    public var maxStrikes: Int = 10
    /// Seconds the server waits for the client's close frame after sending its own (reading and
    /// discarding whatever else the client still sends), before it closes the socket anyway.
    /// Waiting is what lets a client that is still sending read the close frame: a socket
    /// closed with unread input is reset, and the reset destroys what the client had not read.
    public var closeHandshakeSeconds: Int = 2
    /// Seconds without a valid frame from a WebSocket client before the server pings it
    /// (browsers answer by themselves), and before it gives up on the client and drops it. Any
    /// frame from the client counts, pongs included. A peer behind a dead link is gone at most
    /// `idleTimeoutSeconds` (plus the one-second housekeeping tick) after it last spoke.
    public var idlePingSeconds: Int = 30
    public var idleTimeoutSeconds: Int = 60
    /// A room that broadcast nothing for this many seconds sends its viewers a `heartbeat`, so a
    /// page hears something at least every `heartbeatSeconds` + 1 (+ 2.1 when many rooms fell
    /// quiet together, `RoomHeartbeat.takeDue`) and can treat longer silence as a lost connection
    /// (docs/PROTOCOL.md). 0 sends none.
    public var heartbeatSeconds: Int = 5
    /// How long a room holds its `loading` message back. When `started` (or `failed`) follows
    /// within this time, viewers never get `loading`: a quick load does not flash a loading
    /// state, and with a crowd watching, `started` is not queued behind a `loading` fan-out.
    /// Joiners' snapshots and `GET /api/rooms/ROOM` say `loading` from the start. 0 sends it at once.
    public var loadingNoticeMs: Int = 250
    /// Minimum gap between two `presence` messages in one room. Rooms of more than
    /// `presenceIntervalMs × 10` viewers wait 0.1 ms per viewer instead (`PresenceCoalescer`).
    public var presenceIntervalMs: Int = 250
    /// Most rooms that may exist at once, the lobby included. At the limit a new room takes the
    /// place of the room unused the longest; only when every room is in use is creating refused.
    public var maxRooms: Int = 10_000
    /// A room nobody watches and where no draw runs is freed from memory after this long (the
    /// lobby never). With a room store it stays kept there and loads again on its next use;
    /// without one (no data directory) it is gone, name and host key.
    public var roomIdleMs: Int = 24 * 60 * 60 * 1000
    /// A room kept in the store and unused this long (no draw started, no key rotated since it was
    /// created) is deleted; its draws' history stays. Checked about once a minute (more often for
    /// expiry times under two minutes, for tests). A room with viewers is never expired.
    public var roomExpiryMs: Double = 90 * 24 * 60 * 60 * 1000
    /// Rooms one client address (IPv6: one /64) may create at once, then
    /// `roomCreationPerMinute`; beyond, `POST /api/rooms` answers 429 with `Retry-After`.
    public var roomCreationBurst: Int = 20
    public var roomCreationPerMinute: Double = 10
    /// Client addresses whose room-creation budget is remembered; beyond, the one seen least
    /// recently is forgotten, so the table itself cannot be made to grow.
    public var roomCreationAddresses: Int = 4096
    /// Draining (`drain()`, the first SIGTERM): how long running draws may go on to their end
    /// before they are aborted. The default covers a default draw (players loading up to the
    /// 15 s fetch timeout, then 10 rounds of 400 ms and the result) with room to spare, and is
    /// less than Kubernetes' default 30 s between SIGTERM and SIGKILL. 0 aborts at once.
    public var shutdownGraceMs: Int = 25_000
    /// On the stop after draining, how long the draw store gets to finish its writes, and then
    /// clients to receive what they are owed (the `aborted` message, the close frame), before the
    /// server closes whatever is left.
    public var closeGraceMs: Int = 2000

    /// The lobby's host key (`HostKey` form: 48 lowercase hex characters). `nil`: a new one at
    /// every start. The executable passes the key it keeps in the data directory (or the
    /// operator's key file), so the lobby's host link survives a restart. Never logged.
    public var lobbyHostKey: String?

    /// lws' round-trip timeouts (seconds); not an option: tests shorten it to show that an
    /// answer the server works on for longer still arrives (issue 31, finding 3).
    var transportRoundTripSeconds = 10

    public init() {}

    /// How often the store is asked to expire rooms: once a minute, or every half expiry time
    /// when that is shorter, at least a second apart.
    var roomExpiryCheckNanos: UInt64 {
        UInt64(min(60_000, max(1000, roomExpiryMs / 2))) * 1_000_000
    }

    /// `roomIdleMs` in nanoseconds, for the monotonic clock (a negative value counts as 0, a
    /// product past UInt64 as forever: never wrap to a short idle time).
    var roomIdleNanos: UInt64 { Nanoseconds.milliseconds(roomIdleMs) }
}
