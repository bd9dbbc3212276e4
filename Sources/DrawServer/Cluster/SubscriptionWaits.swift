/// Viewers' lookups waiting for their room's subscription to be confirmed by Redis
/// (`ClusterRooms.prepareViewer`): each goes on at the confirmation, or after
/// `ClusterRooms.subscriptionWaitNanos` if none comes (Redis slow or away, a node just started:
/// the joiner then reads a view that may miss an event published before the subscription took).
/// A room let go without its confirmation is caught up when the confirmation comes
/// (`confirmedLate`: its view is read again), so an end published in between is not lost for
/// good (the soak found a restarted node showing a finished draw as running, with no end ever
/// following). Service thread only.
final class SubscriptionWaits {
    private unowned let loop: any RoomLoop
    /// Per room: who waits, and the timer that lets them go on without the confirmation.
    private var waiting: [String: (waiters: [() -> Void], timer: any ServiceTimer)] = [:]
    /// Rooms whose waiters went on without the confirmation, until it comes.
    private var unconfirmed: Set<String> = []
    /// A room's subscription was confirmed after its waiters went on without it.
    var confirmedLate: (_ room: String) -> Void = { _ in }

    init(loop: any RoomLoop) { self.loop = loop }

    /// Runs `go` at once when `isSubscribed`, else once `room` is confirmed or the wait is over.
    func wait(for room: String, isSubscribed: Bool, then go: @escaping () -> Void) {
        if isSubscribed { return go() }
        if waiting[room] != nil {
            waiting[room]?.waiters.append(go)
            return
        }
        let timer = loop.makeTimer { [unowned self] in
            unconfirmed.insert(room)
            release(room)
        }
        timer.schedule(afterNanos: ClusterRooms.subscriptionWaitNanos)
        waiting[room] = ([go], timer)
    }

    /// Redis confirmed `room`'s subscription.
    func confirmed(_ room: String) {
        release(room)
        if unconfirmed.remove(room) != nil { confirmedLate(room) }
    }

    /// Lookups waiting now (tests).
    var count: Int { waiting.values.reduce(0) { $0 + $1.waiters.count } }

    private func release(_ room: String) {
        guard let entry = waiting.removeValue(forKey: room) else { return }
        entry.timer.cancel()
        for go in entry.waiters { go() }
    }
}
