import DrawTransport
/// Idle WebSockets: a client silent for `idlePingSeconds` is pinged, and one still silent at
/// `idleTimeoutSeconds` is let go (a peer behind a dead link never says goodbye). Any valid frame
/// counts as heard, pongs included. Service thread only.
///
/// The server does this itself, not lws: see `IdleTracker` for why (lws' per-connection
/// validity timers cost O(connections) each).
extension WebSocketInbound {
    /// How often the tracker is swept: often enough that the pings owed after a join storm go
    /// out in slices (one per sweep) rather than in one service turn, while a sweep with nothing
    /// due costs one comparison.
    static let idleSweepNanos: UInt64 = 200_000_000

    static func idleTracker(_ config: ServerConfig) -> IdleTracker<ObjectIdentifier> {
        IdleTracker(pingAfterNanos: Nanoseconds.seconds(config.idlePingSeconds),
                    hangUpAfterNanos: Nanoseconds.seconds(config.idleTimeoutSeconds))
    }

    /// The client connected, or a valid frame came from it. A client already forgotten (closed
    /// while its input was handled) is not tracked again.
    func heard(_ client: ClientConnection) {
        let id = ObjectIdentifier(client)
        guard clients[id] === client else { return }
        idle.heard(id, at: clock.monotonicNanos())
        if idleTimer == nil {
            idleTimer = loop.timer { [unowned self] in self.sweepIdle() }
            idleTimer?.schedule(afterNanos: Self.idleSweepNanos)
        }
    }

    /// Pings the clients silent for the ping interval and lets go of the ones that did not answer.
    func sweepIdle() {
        let due = idle.sweep(at: clock.monotonicNanos())
        for id in due.ping {
            guard let client = clients[id], client.write.idlePingDue() else { continue }
            client.connection.requestWritable()
        }
        for id in due.hangUp {
            guard let client = clients[id] else { continue }
            logger.debug("letting a silent WebSocket go", metadata: ["room": "\(client.room?.name ?? "-")"])
            metrics.idleClientDropped()
            client.connection.kill()
        }
        idleTimer?.schedule(afterNanos: Self.idleSweepNanos)
    }
}
