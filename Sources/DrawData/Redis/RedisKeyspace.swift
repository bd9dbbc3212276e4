/// The names live-draw uses in Redis, in one place (docs/SCALING.md lists them).
///
/// Everything starts with `prefix`, so several deployments (or a test per Redis) can share one
/// Redis: keys and channels of one never meet the other's. Pub/sub channels are not scoped by
/// Redis' database number, so the prefix is what separates them.
public struct RedisKeyspace: Sendable, Hashable {
    public static let defaultPrefix = "live-draw:"

    public let prefix: String

    public init(prefix: String = RedisKeyspace.defaultPrefix) {
        self.prefix = prefix
    }

    /// The room's draw lease: a string holding the owner id, with a TTL.
    public func leaseKey(room: String) -> String { "\(prefix)lease:\(room)" }

    /// The room's fencing token: the newest token granted with its lease (a whole number, only
    /// growing, never expiring). Every shared write of a draw's node carries its token, and a
    /// script refuses one older than this (issue 27, docs/SCALING.md "Fencing").
    public func fenceKey(room: String) -> String { "\(prefix)fence:\(room)" }

    /// Who ended draw `drawId` in the shared history: the token whose end was written (a
    /// takeover claims it when it ends the draw), so a later end with another token is refused.
    public func drawEndKey(drawId: String) -> String { "\(prefix)draw-end:\(drawId)" }

    /// The room's record: a hash of `keyHash` (hex), `createdAt`, `lastActivityAt`, `settings`.
    public func roomKey(room: String) -> String { "\(prefix)room:\(room)" }

    /// Every kept room's name, scored by its last activity (expiry and counting).
    public var roomsIndexKey: String { "\(prefix)rooms" }

    /// A scheduled draw waiting for its time (issue 30): the whole draw as JSON, seed included.
    public func scheduledKey(drawId: String) -> String { "\(prefix)scheduled:\(drawId)" }

    /// A scheduled draw's claim at its time: the claiming node's id, expiring (a lease). The draw
    /// stays kept until its first step is recorded (`RedisFencedDrawLog`) or its miss is, so a
    /// node that dies between its claim and its start leaves it to another node.
    public func scheduledClaimKey(drawId: String) -> String { "\(prefix)scheduled-claim:\(drawId)" }

    /// The scheduled draws waiting: ids scored by their time (epoch ms).
    public var scheduledIndexKey: String { "\(prefix)scheduled" }

    /// Each room's scheduled draw: a hash, room → draw id (one per room).
    public var scheduledRoomsKey: String { "\(prefix)scheduled-rooms" }

    /// What a snapshot shows of the room's draw: a hash (`head`, `drawId`, `loading`, `lastResult`).
    public func viewKey(room: String) -> String { "\(prefix)view:\(room)" }

    /// The running draw's rounds as a snapshot lists them, in order.
    public func viewRoundsKey(room: String) -> String { "\(prefix)view-rounds:\(room)" }

    /// The running draw's seed escrow: a hash (`drawId`, `seed`, `roundsShown`, `node`).
    public func escrowKey(room: String) -> String { "\(prefix)escrow:\(room)" }

    /// Viewer counts per node: a hash, node → `count:expiresAtMs`.
    public func presenceKey(room: String) -> String { "\(prefix)presence:\(room)" }

    /// An ended draw's record, as the history API returns it.
    public func drawKey(drawId: String) -> String { "\(prefix)draw:\(drawId)" }

    /// A draw's entrants: the hash (hex SHA-256) of its list, kept once under `entrantListKey`.
    /// Written before issue 31 (and still read): the hash, a newline, then the canonical JSON.
    public func entrantsKey(drawId: String) -> String { "\(prefix)entrants:\(drawId)" }

    /// One entrant list, the canonical JSON, under its SHA-256 (hex): shared by every draw of it.
    public func entrantListKey(hash: String) -> String { "\(prefix)entrant-list:\(hash)" }

    /// The room's draws: ids scored by their position in the cluster's history sequence.
    public func historyKey(room: String) -> String { "\(prefix)history:\(room)" }

    /// The room's draws' history lines: a hash, draw id → summary JSON.
    public func historyLinesKey(room: String) -> String { "\(prefix)history-lines:\(room)" }

    /// The room's ended draws, scored by when they ended (Redis `TIME`, epoch ms): which of its
    /// history lines the retention window lets go (`HistoryRetention`).
    public func historyEndsKey(room: String) -> String { "\(prefix)history-ends:\(room)" }

    /// A stream of every ended draw (`d`: its id, `r`: its room), in the order they ended, trimmed
    /// to the retention window: what every node copies into its own archive (`DrawArchive`).
    public var endsKey: String { "\(prefix)ends" }

    /// The ends stream's counter (`INCR`): each end's number (`n`), so a reader sees whether the
    /// window trimmed ends it had not read yet.
    public var endsSequenceKey: String { "\(prefix)ends-seq" }

    /// The cluster's history sequence (`INCR`): the next draw's position, so positions only grow.
    public var historySequenceKey: String { "\(prefix)history-seq" }

    /// The pub/sub channel of the room's events.
    public func eventChannel(room: String) -> String { "\(prefix)events:\(room)" }

    /// The room a channel name belongs to, or `nil` if it is not one of ours.
    public func room(ofEventChannel channel: String) -> String? {
        let head = "\(prefix)events:"
        guard channel.hasPrefix(head) else { return nil }
        return String(channel.dropFirst(head.count))
    }
}
