import DrawCore
import DrawPresentation

/// Ending the draw of a node that is gone (docs/SCALING.md, "A node dies mid-draw"): every node
/// with viewers in a room whose draw it shows as running looks at the room's lease once a second.
/// Only when the lease has been free for a full TTL, and this node's own link to Redis has been
/// up at least that long (issue 27: a node that merely reconnected late, or is in its reconnect
/// backoff, keeps its draw), does this node take the lease — with a new, larger fencing token —
/// and end the escrowed draw as `aborted`, reason `interrupted`, with the seed, in one fenced
/// entry that also claims the draw's end. The old holder's entries are refused from then on.
extension ClusterNode {
    /// The reason viewers see.
    static let interruptedReason = "interrupted"

    private var ttlNanos: UInt64 { UInt64(services.leaseTTLMs) * 1_000_000 }

    /// Housekeeping: the link's state now (`linkUpSince`). Down, every lease observation starts over.
    func noteLink(up: Bool, nowNanos: UInt64) {
        if up {
            if linkUpSince == nil { linkUpSince = nowNanos }
        } else {
            linkUpSince = nil
            leaseFreeSince = [:]
        }
    }

    /// Whether takeovers may be tried now: not in the pause after a reconnect (`catchUp`), and
    /// only once this node's link has been up a full lease TTL.
    func takeoversAllowed(nowMs: Double, nowNanos: UInt64) -> Bool {
        guard nowMs >= catchingUpUntilMs, let since = linkUpSince else { return false }
        return nowNanos >= since && nowNanos - since >= ttlNanos
    }

    /// Looks at the leases of `rooms` (those this node shows another node's draw in): one seen free
    /// for a full TTL is taken over; the others are looked at again (on the worker).
    func checkOrphans(_ rooms: [String], clock: any DrawClock) {
        let now = clock.monotonicNanos(), watched = Set(rooms)
        leaseFreeSince = leaseFreeSince.filter { watched.contains($0.key) }
        for room in rooms where !leases.holds(room) {
            if let since = leaseFreeSince[room], now >= since, now - since >= ttlNanos {
                leaseFreeSince[room] = nil
                takeOver(room, clock: clock)
            } else {
                observeLease(room, clock: clock)
            }
        }
    }

    /// Reads who holds the room's lease; free, the time the answer came is when it was surely
    /// free (the read ran before it), held, any earlier sighting is forgotten.
    private func observeLease(_ room: String, clock: any DrawClock) {
        let lease = services.lease
        let back = executor.continuation { [unowned self] (free: Bool?) in
            guard let free else { return }
            if free {
                if leaseFreeSince[room] == nil { leaseFreeSince[room] = clock.monotonicNanos() }
            } else {
                leaseFreeSince[room] = nil
            }
        }
        worker.submit {
            do throws(CoordinationError) { back(try lease.owner(ofRoom: room) == nil) } catch { back(nil) }
        }
    }

    /// Takes the room's lease (a new token) and ends what its last holder left running.
    private func takeOver(_ room: String, clock: any DrawClock) {
        let lease = services.lease, ttl = services.leaseTTLMs, node = nodeId, publisher = self.publisher
        let log = services.log, views = services.views, logger = self.logger, back = self.back
        orphanSuspects.remove(room)
        worker.submit {
            let owner = "\(node)/takeover"
            guard let token = try? lease.acquire(room: room, owner: owner, ttlMs: ttl) else { return }
            defer { _ = try? lease.release(room: room, owner: owner) }
            let escrowed: EscrowedDraw?
            do throws(CoordinationError) { escrowed = try log.escrowed(room: room) } catch { return }
            guard let draw = escrowed else {
                guard let view = try? views?.view(room: room) else { return }
                if view.loading && view.head == nil {
                    // Its node died while loading the lists: nothing was planned, so nothing
                    // to reveal; say the draw failed, so no viewer waits in "loading".
                    Self.endLoading(room: room, node: node, token: token, clock: clock, log: log, publisher: publisher)
                    logger.warning("ended the loading of a node that stopped renewing its lease", metadata: ["room": "\(room)"])
                } else {
                    // Nothing escrowed: the draw ended properly and this node missed its
                    // end; the view says how it ended.
                    back { $0.viewArrived(room, view) }
                }
                return
            }
            guard let (endedAt, _) = Self.endLeftover(draw, room: room, node: node, token: token, clock: clock, log: log,
                                                      publisher: publisher) else { return }
            back { $0.tookOver(room, draw, token, endedAt) }
            logger.warning("ended the draw of a node that stopped renewing its lease", metadata: [
                "room": "\(room)", "drawId": "\(draw.drawId)", "node": "\(draw.node)", "roundsShown": "\(draw.roundsShown)",
            ])
        }
    }

    /// Ends `draw`, left escrowed in `room` by a holder that is gone, as `aborted`/`interrupted`
    /// with its seed, under `token` (a lease this node was just granted): one fenced entry that
    /// takes the escrow, claims the draw's end and publishes it. Every node's viewers get it
    /// through their subscription (the envelope's node is not this node's id), this node's too.
    /// Returns when it ended (epoch ms) and the end its viewers are shown, or `nil` when it was
    /// not applied (it ended meanwhile). On the worker.
    static func endLeftover(_ draw: EscrowedDraw, room: String, node: String, token: UInt64, clock: any DrawClock,
                            log: any FencedDrawLog, publisher: EnvelopePublisher) -> (endedAt: Double, end: StoredDrawEnd)? {
        let now = clock.epochMillis()
        let envelope = ClusterEnvelope(
            node: "\(node)/takeover", kind: .aborted, drawId: draw.drawId, plannedAt: now, sentAt: now,
            wire: WireMessages.aborted(drawId: draw.drawId, roundsShown: draw.roundsShown,
                                       reason: interruptedReason, seedHex: draw.seedHex), token: token)
        let entry = publisher.entry(envelope, room: room, token: token, escrow: .takeOver(drawId: draw.drawId))
        guard case .accepted? = try? log.append(entry) else { return nil }
        return (now, StoredDrawEnd(drawId: draw.drawId, wire: envelope.wire))
    }

    /// `failed` (`node_lost`) for a draw whose node died while loading, folded into the view
    /// first (so a joiner reads it idle) and published to every node with viewers there.
    private static func endLoading(room: String, node: String, token: UInt64, clock: any DrawClock,
                                   log: any FencedDrawLog, publisher: EnvelopePublisher) {
        let now = clock.epochMillis()
        let envelope = ClusterEnvelope(node: "\(node)/takeover", kind: .failed, plannedAt: now, sentAt: now,
                                       wire: WireMessages.failed(.nodeLost), token: token)
        _ = try? log.append(publisher.entry(envelope, room: room, token: token, escrow: .keep))
    }
}
