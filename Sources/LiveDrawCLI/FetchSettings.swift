/// How the player lists are fetched: limits handed to the data layer's HTTP client.
///
/// Plain milliseconds and bytes, so that this module needs no dependency on the data layer; the
/// executable turns them into the client's configuration.
public struct FetchSettings: Sendable, Hashable {
    /// DNS plus TCP (and TLS) connect, in milliseconds.
    public var connectTimeoutMs: Int
    /// The whole transfer, in milliseconds.
    public var totalTimeoutMs: Int
    /// The largest accepted response body, in bytes.
    public var maxBytes: Int

    /// The defaults suit two small JSON lists fetched just before a draw: a slow source should
    /// fail the draw within seconds, not keep a room in `loading`.
    public static let defaults = FetchSettings(connectTimeoutMs: 5_000, totalTimeoutMs: 15_000, maxBytes: 1 << 20)

    public init(connectTimeoutMs: Int, totalTimeoutMs: Int, maxBytes: Int) {
        self.connectTimeoutMs = connectTimeoutMs
        self.totalTimeoutMs = totalTimeoutMs
        self.maxBytes = maxBytes
    }
}
