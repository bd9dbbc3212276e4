import DrawCore
import DrawData
import DrawServer
import Foundation
import Logging

/// Cluster mode's parts on Redis (docs/SCALING.md), built once at start when `--redis-url` is
/// given: this process's node id and the Redis adapters the server is handed.
///
/// Three connections, so that no kind of call waits behind another: the room registry's (the
/// server's storage thread, which also keeps the scheduled draws), the cluster worker's
/// (publishes, leases) and the subscriber's.
///
/// With the cluster's secret, every adapter that keeps a value a node later trusts (records,
/// history lines, views, escrow, scheduled draws) gets the same `StoredSeal` (from the secret,
/// through `EnvelopeSeal.stored`), reporting what it refuses to one `StoredValueRefusals`;
/// without it they keep plain values.
struct ClusterSetup {
    let url: RedisURL
    /// Random per process start: a restarted node is a new node (its old leases are not its own).
    let nodeId: String
    /// The room registry, called on the server's storage thread.
    let roomStore: RedisRoomStore
    /// The leases and the channel, for the server.
    var services: ClusterServices

    init(url: RedisURL, seal: EnvelopeSeal?, retention: HistoryRetention = .standard, random: any RandomSource,
         clock: any DrawClock, logger: Logger) {
        self.url = url
        let nodeId = "node-" + Hex.encode(random.bytes(6))
        self.nodeId = nodeId
        let refusals = StoredValueRefusals(logger: logger, clock: clock)
        let stored = seal.map { $0.stored.reporting { kind, key in refusals.report(kind, key: key) } } ?? .plain
        let configuration = RedisConfiguration(url: url)
        let rooms = RedisConnection(configuration: configuration)
        roomStore = RedisRoomStore(connection: rooms, seal: stored, claimant: nodeId)
        let commands = RedisConnection(configuration: configuration)
        let made = MadeChannel()
        services = ClusterServices(
            nodeId: nodeId,
            lease: RedisRoomLease(connection: commands),
            log: RedisFencedDrawLog(connection: commands, seal: stored),
            views: RedisRoomViewStore(connection: commands, seal: stored),
            presence: RedisPresenceBoard(connection: commands),
            records: RedisSharedDrawRecords(connection: rooms, seal: stored, retention: retention),
            seal: seal,
            makeEvents: { deliver in
                let channel = RedisRoomEventChannel(connection: commands, onEvent: deliver)
                // The subscriber notices Redis is back first (it is always connected); the command
                // connections, idle in their backoff, then try at once instead of up to 5 s later.
                channel.subscriber.link.observe { state in
                    if state == .up { rooms.retryNow(); commands.retryNow() }
                }
                made.set(channel)
                return channel
            },
            // The subscriber's link: it is always connected (and pinged when idle), so it notices
            // a Redis that went away, and one that came back, by itself.
            linkUp: { made.channel?.subscriber.link.state == .up },
            linkUps: { made.channel?.subscriber.link.upCount ?? 0 })
        services.retention = retention
    }
}

extension ClusterSetup {
    /// Why this node must not start on its Redis, or `nil` (issue 44, docs/SCALING.md
    /// "Deployment"): an evicting `maxmemory-policy` could drop a lease, a fence or an escrow
    /// under a running draw. A policy that cannot be read (Redis away, CONFIG and INFO denied)
    /// is logged, and the node starts: it is the operator's to check then.
    func evictionRefusal(logger: Logger) -> String? {
        let policy = RedisEvictionPolicy.read(from: roomStore.connection)
        if case .unknown(let why) = policy {
            logger.warning("could not read Redis' maxmemory-policy, which must be noeviction (docs/SCALING.md, Deployment)",
                           metadata: ["redis": "\(url)", "error": "\(why)"])
        }
        return policy.refusal(address: "\(url.host):\(url.port)")
    }
}

extension RedisRoomEventChannel: ClusterEventChannel {
    public func isSubscribed(room: String) -> Bool {
        subscriber.subscribedChannels.contains(keyspace.eventChannel(room: room))
    }
}

/// The channel the server made, for the link check (set once, read from any thread).
private final class MadeChannel: @unchecked Sendable {
    // @unchecked Sendable: `made` is guarded by `lock`.
    private let lock = NSLock()
    private var made: RedisRoomEventChannel?

    var channel: RedisRoomEventChannel? { lock.withLock { made } }
    func set(_ channel: RedisRoomEventChannel) { lock.withLock { made = channel } }
}
