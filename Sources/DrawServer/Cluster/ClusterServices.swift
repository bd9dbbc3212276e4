import DrawCore

/// A `RoomEventChannel` the server starts and stops with itself (Redis pub/sub in the executable).
public protocol ClusterEventChannel: RoomEventChannel {
    /// Starts receiving (the subscriber's thread).
    func start()
    /// Stops receiving; returns once no more events will arrive.
    func stop()
    /// Whether the room's subscription is confirmed now (any thread).
    func isSubscribed(room: String) -> Bool
    /// Calls `observer` with the room each time its subscription is confirmed (on the channel's
    /// thread), so a joiner's view read waits for it without polling.
    func observeSubscriptions(_ observer: @escaping @Sendable (_ room: String) -> Void)
}

/// Cluster mode (issue 14, docs/SCALING.md): what the composition root hands the server when
/// several nodes share one Redis. Without it (`nil`) the server is one node, as before.
///
/// The room registry is not here: it is the server's `roomStore` (a Redis one in cluster mode),
/// called on a rooms thread of its own (never the SQLite thread: Redis may be slow or away).
public struct ClusterServices: Sendable {
    /// This process's id in the cluster, unique per start; part of every lease owner and event.
    public var nodeId: String
    /// The draw lock: one draw per room across the cluster.
    public var lease: any RoomLease
    /// How long a lease lasts unless renewed, and how often the running node renews it. A node
    /// that dies holds its rooms' leases at most `leaseTTLMs` longer.
    public var leaseTTLMs: Int
    public var leaseRenewMs: Int
    /// Makes the room event channel, handing what arrives (on the channel's thread) to `deliver`.
    /// Called once, in the server's `init`.
    public var makeEvents: @Sendable (_ deliver: @escaping @Sendable (_ room: String, _ payload: [UInt8]) -> Void)
        -> any ClusterEventChannel
    /// Whether the link to the shared store is up now (any thread). While it is not, new rooms
    /// and new draws are refused (503 `cluster_unavailable`) and `/healthz` says degraded.
    public var linkUp: @Sendable () -> Bool
    /// How many times the link has come up since the start (any thread). A change after the
    /// first means Redis came back, maybe empty: the node writes the rooms it holds back.
    public var linkUps: @Sendable () -> Int
    /// Where the running node keeps what a snapshot shows, for joiners on other nodes; `nil`:
    /// a node learns a draw only from the events it receives.
    public var views: (any RoomViewStore)?
    /// Every shared write of a draw, fenced by its lease's token: view, seed escrow, end, publish.
    public var log: any FencedDrawLog
    /// Viewer counts summed across nodes; `nil`: each node shows its own count.
    public var presence: (any PresenceBoard)?
    /// Ended draws' records readable from every node; `nil`: each node serves its own.
    public var records: (any SharedDrawRecords)?
    /// This node's durable outbox of the history lines it owes `records` (its SQLite store, the
    /// draw store's thread calls it); `nil`: owed lines are kept in memory only.
    public var outbox: (any HistoryOutboxStore)?
    /// This node's own copy of every draw the cluster ended (its SQLite store), which reads fall
    /// back to once `records` let a draw go (issue 44); `nil`: reads end at `records`.
    public var archive: (any DrawArchive)?
    /// How long `records` keeps an ended draw (what `HistoryOutbox` may write back after Redis
    /// came back without it: nothing older than this).
    public var retention: HistoryRetention = .standard
    /// The cluster's shared secret (`--cluster-secret-file`): every envelope published is sealed
    /// with it and every one received must be; `nil`: envelopes go unauthenticated (Redis must
    /// then be private).
    public var seal: EnvelopeSeal?

    public init(nodeId: String, lease: any RoomLease, leaseTTLMs: Int = 3_000, leaseRenewMs: Int = 1_000,
                log: any FencedDrawLog, views: (any RoomViewStore)? = nil,
                presence: (any PresenceBoard)? = nil, records: (any SharedDrawRecords)? = nil,
                outbox: (any HistoryOutboxStore)? = nil, seal: EnvelopeSeal? = nil,
                makeEvents: @escaping @Sendable (_ deliver: @escaping @Sendable (_ room: String, _ payload: [UInt8]) -> Void)
                    -> any ClusterEventChannel,
                linkUp: @escaping @Sendable () -> Bool, linkUps: @escaping @Sendable () -> Int = { 0 }) {
        precondition(leaseRenewMs > 0 && leaseTTLMs > leaseRenewMs, "the lease must outlive its renewal interval")
        self.nodeId = nodeId
        self.lease = lease
        self.leaseTTLMs = leaseTTLMs
        self.leaseRenewMs = leaseRenewMs
        self.makeEvents = makeEvents
        self.linkUp = linkUp
        self.linkUps = linkUps
        self.views = views
        self.log = log
        self.presence = presence
        self.records = records
        self.outbox = outbox
        self.seal = seal
    }
}
