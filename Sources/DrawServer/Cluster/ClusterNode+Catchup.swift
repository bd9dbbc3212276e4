import DrawCore

/// After an outage of the link to Redis (docs/SCALING.md, "Redis goes away"): no node takes
/// over a draw for a while, so a node that is alive but reconnected later than this one gets to
/// append the steps it holds (its draw's end among them, `FencedDraws`) first, instead of its
/// draw being ended as `interrupted` by another.
extension ClusterNode {
    /// How long after a reconnect no takeover is tried: the lease's TTL plus the longest
    /// reconnect delay (5 s), so every live node has reconnected and renewed its leases or
    /// published its ends first.
    var takeoverPauseMs: Double { Double(services.leaseTTLMs) + 5_000 }

    /// Whether a new draw may be admitted now: not while this node has reconnected and not caught
    /// up yet, nor in the pause after (`takeoverPauseMs`), so a node that ran a draw through the
    /// outage takes its lease back (it keeps it while the draw's end is owed) and publishes that
    /// end before anyone can start the next draw in its room (fault suite, kill-redis-*).
    func startsAllowed(nowMs: Double) -> Bool {
        nowMs >= catchingUpUntilMs && !reconnectedNotCaughtUp
    }

    /// The link came up again since the start and the housekeeping tick has not caught up with it
    /// yet (`rebuildAfterReconnect`): rooms are not written back.
    var reconnectedNotCaughtUp: Bool {
        let ups = services.linkUps()
        return ups > 1 && ups != seenLinkUps
    }

    /// The link came back: hold takeovers and new draws back for a while. The steps this node
    /// could not append meanwhile are retried by `FencedDraws` until Redis answers.
    func catchUp(nowMs: Double) {
        catchingUpUntilMs = nowMs + takeoverPauseMs
    }
}
