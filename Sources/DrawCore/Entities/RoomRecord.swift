/// A room as it is kept for good: what the server needs to bring the room back after a restart
/// or an eviction, and to expire it when nobody has used it for a long time.
///
/// Times are epoch milliseconds, like the draw records'. The host key itself is never part of
/// the record, only its hash: the key is shown once, at creation.
///
/// The lobby is not a room record: its key lives in a file the operator controls (see
/// `LobbyKeyFile` in DrawData) and it never expires.
public struct RoomRecord: Sendable, Hashable {
    /// The room's name (`RoomName` rules: `[a-z0-9-]{1,64}`); unique among stored rooms.
    public var name: String
    /// The hash of the room's current host key.
    public var keyHash: HostKeyHash
    /// When the room was created.
    public var createdAt: Double
    /// The last time the room was used (a draw, a viewer, a key rotation), as the server last
    /// told the store (`RoomStore.touchRoom`). Expiry counts idleness from here.
    public var lastActivityAt: Double
    /// What the host chose for the room.
    public var settings: RoomSettings
    /// The room's own entrant list, summed up; `nil`: the room draws from the operator's lists.
    /// The list itself is read only when a draw starts (`RoomStore.entrants(ofRoom:)`).
    public var entrants: RoomEntrantsSummary?
    /// The URLs the room's list is fetched from when each draw starts (issue 15), or `nil`.
    /// Never set together with `entrants`: a room has an uploaded list, list URLs, or neither.
    public var sourceURLs: DrawSources?

    /// A room; a new one's last activity is its creation.
    public init(name: String, keyHash: HostKeyHash, createdAt: Double, lastActivityAt: Double? = nil,
                settings: RoomSettings = RoomSettings(), entrants: RoomEntrantsSummary? = nil,
                sourceURLs: DrawSources? = nil) {
        self.name = name
        self.keyHash = keyHash
        self.createdAt = createdAt
        self.lastActivityAt = lastActivityAt ?? createdAt
        self.settings = settings
        self.entrants = entrants
        self.sourceURLs = sourceURLs
    }
}
