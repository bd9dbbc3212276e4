/// How to reach Redis and how patiently: the URL, the timeouts and the reconnect backoff.
/// The defaults suit a Redis on the same network; tests shorten them.
public struct RedisConfiguration: Sendable, Hashable {
    public var url: RedisURL
    /// How long a TCP connect may take before the attempt fails.
    public var connectTimeoutMs: Int
    /// How long one command may wait for its reply; after that the connection is dropped (its
    /// stream is out of step) and the command fails with `connectionLost`.
    public var commandTimeoutMs: Int
    /// Delays between reconnect attempts.
    public var backoff: ReconnectBackoff
    /// How often the subscriber pings an idle connection; no reply within another interval (plus
    /// the command timeout) counts as a lost link, so a silent network drop is noticed.
    public var pingIntervalMs: Int

    public init(url: RedisURL, connectTimeoutMs: Int = 2_000, commandTimeoutMs: Int = 2_000,
                backoff: ReconnectBackoff = ReconnectBackoff(), pingIntervalMs: Int = 5_000) {
        precondition(connectTimeoutMs > 0 && commandTimeoutMs > 0 && pingIntervalMs > 0, "timeouts must be positive")
        self.url = url
        self.connectTimeoutMs = connectTimeoutMs
        self.commandTimeoutMs = commandTimeoutMs
        self.backoff = backoff
        self.pingIntervalMs = pingIntervalMs
    }
}
