import DrawCore

/// After an outage of the link to Redis (docs/SCALING.md, "Redis goes away"): a draw that ended
/// here while the link was down had its end published to nobody. Once the link is back the end
/// is published again, so the other nodes' viewers get the outcome (`finished`, or how it
/// stopped) and the escrow is cleared; and no node takes over a draw for a while, so a node
/// that is alive but reconnected later than this one gets to publish its end first, instead of
/// its draw being ended as `interrupted` by another.
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
    /// yet (`rebuildAfterReconnect`): rooms are not written back, owed ends not published.
    var reconnectedNotCaughtUp: Bool {
        let ups = services.linkUps()
        return ups > 1 && ups != seenLinkUps
    }

    /// The link came back: publish the ends owed, and hold takeovers and new draws back for a while.
    func catchUp(nowMs: Double) {
        catchingUpUntilMs = nowMs + takeoverPauseMs
        let owed = unpublishedEnds
        unpublishedEnds = [:]
        for (room, end) in owed {
            logger.notice("publishing a draw's end the cluster missed while Redis was away",
                          metadata: ["room": "\(room)", "kind": "\(end.envelope.kind.rawValue)"])
            publish(end.envelope, room: room, escrow: end.change)
        }
    }
}
