import DrawCore
import DrawPresentation

/// Ending the draw of a node that died (docs/SCALING.md, "A node dies mid-draw"): every node with
/// viewers in a room whose draw it shows as running checks the room's lease once a second. A
/// lapsed lease means the running node stopped renewing it; the first node to take it withdraws
/// the seed escrow and publishes `aborted` with reason `interrupted` and the seed, so every node's
/// viewers see the draw end, verifiably, within the lease's TTL plus one check.
extension ClusterNode {
    /// The reason viewers see.
    static let interruptedReason = "interrupted"

    /// Checks the leases of `rooms` (those this node shows another node's draw in) on the worker.
    func checkOrphans(_ rooms: [String], clock: any DrawClock) {
        guard let escrow = services.escrow, !rooms.isEmpty else { return }
        let lease = services.lease, ttl = services.leaseTTLMs, node = nodeId, publisher = self.publisher
        let views = services.views, logger = self.logger, back = self.back
        for room in rooms where !leases.keys.contains(room) {
            worker.submit {
                // Held by the running node (or Redis away): nothing to do. `SET NX` is the check.
                let owner = "\(node)/takeover"
                guard (try? lease.acquire(room: room, owner: owner, ttlMs: ttl)) == true else { return }
                defer { _ = try? lease.release(room: room, owner: owner) }
                let withdrawn: EscrowedDraw?
                do throws(CoordinationError) { withdrawn = try escrow.withdraw(room: room) } catch { return }
                guard let draw = withdrawn else {
                    guard let view = try? views?.view(room: room) else { return }
                    if view.loading && view.head == nil {
                        // Its node died while loading the lists: nothing was planned, so nothing
                        // to reveal; say the draw failed, so no viewer waits in "loading".
                        Self.publishLoadingLost(room: room, node: node, clock: clock, views: views, publisher: publisher)
                        logger.warning("ended the loading of a node that stopped renewing its lease", metadata: ["room": "\(room)"])
                    } else {
                        // Nothing escrowed: the draw ended properly and this node missed its
                        // end; the view says how it ended.
                        back { $0.viewArrived(room, view) }
                    }
                    return
                }
                let now = clock.epochMillis()
                let envelope = ClusterEnvelope(
                    node: "\(node)/takeover", kind: .aborted, drawId: draw.drawId, plannedAt: now, sentAt: now,
                    wire: WireMessages.aborted(drawId: draw.drawId, roundsShown: draw.roundsShown,
                                               reason: Self.interruptedReason, seedHex: draw.seedHex))
                try? views?.record(room: room, kind: envelope.kind.rawValue, drawId: draw.drawId, index: nil, part: [])
                try? publisher.publish(envelope, toRoom: room)
                // This node's own viewers get it like any other node's, through its subscription
                // (the envelope's node is not this node's id).
                logger.warning("ended the draw of a node that stopped renewing its lease", metadata: [
                    "room": "\(room)", "drawId": "\(draw.drawId)", "node": "\(draw.node)", "roundsShown": "\(draw.roundsShown)",
                ])
                back { $0.history?.takeoverEnded(drawId: draw.drawId, room: room, token: 0, seedHex: draw.seedHex, roundsShown: draw.roundsShown, endedAt: now) }
            }
        }
    }

    /// `failed` (`node_lost`) for a draw whose node died while loading, folded into the view
    /// first (so a joiner reads it idle) and published to every node with viewers there.
    private static func publishLoadingLost(room: String, node: String, clock: any DrawClock,
                                           views: (any RoomViewStore)?, publisher: EnvelopePublisher) {
        let now = clock.epochMillis()
        let envelope = ClusterEnvelope(node: "\(node)/takeover", kind: .failed, plannedAt: now, sentAt: now,
                                       wire: WireMessages.failed(.nodeLost))
        try? views?.record(room: room, kind: envelope.kind.rawValue, drawId: nil, index: nil, part: [])
        try? publisher.publish(envelope, toRoom: room)
    }
}
