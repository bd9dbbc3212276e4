/// Where a recorded draw stands. The raw values are what the database stores and the history API
/// sends, so they never change.
public enum DrawStatus: String, Sendable, Hashable, CaseIterable {
    /// Planned, `started` published, rounds being shown. Its seed is still secret.
    case running
    /// Every round was shown and the result announced.
    case finished
    /// No draw could be planned (a source failed, or no players were left): no seed, no rounds.
    case failed
    /// Stopped by the server before its end (shutdown, storage failure); seed revealed.
    case aborted
    /// Found still `running` when the server started again: the process died mid-draw.
    case interrupted

    /// Whether the draw is over. Only an ended draw's seed may be read back from the store.
    public var isEnded: Bool { self != .running }
}
