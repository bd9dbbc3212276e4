import DrawCore
import DrawPresentation
import Logging

/// The lease gate of cluster mode (`DrawStartGate`, docs/SCALING.md "Fencing"): a draw starts
/// only under its room's lease, taken after the room's record was read again, and the lease is
/// given back once the draw is over and its end is durable in the cluster (`FencedDraws`). Service thread only; the lease
/// calls run on the `ClusterNode`'s worker and come back as service-thread jobs.
final class ClusterStartGate: DrawStartGate {
    private let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private unowned let loop: any RoomLoop
    /// What a granted lease tells: its token (events under older ones are stale from then on).
    private unowned let receiver: ClusterEventReceiver
    /// Ends a draw a gone holder left in the room, under the lease just granted.
    private unowned let ownDraws: FencedDraws
    /// The owners this one works with, set once they exist (`attach`).
    private unowned(unsafe) var directory: RoomDirectory!
    /// Reads a room's record again before a start (`ClusterRooms.refresh`): its key may have
    /// been rotated, or the room deleted, through another node. `done` gets `nil` to go on.
    private var refresh: (_ room: Room, _ done: @escaping (ClientErrorCode?) -> Void) -> Void = { _, done in done(nil) }

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, loop: any RoomLoop,
         receiver: ClusterEventReceiver, ownDraws: FencedDraws) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.loop = loop
        self.receiver = receiver
        self.ownDraws = ownDraws
    }

    /// Wires the registry in.
    func attach(directory: RoomDirectory,
                refresh: @escaping (_ room: Room, _ done: @escaping (ClientErrorCode?) -> Void) -> Void) {
        self.directory = directory
        self.refresh = refresh
    }

    private var phase: ServerPhase { loop.phase }

    /// A start in cluster mode: the room's record is read again first (its key may have been
    /// rotated, or the room deleted, through another node), then the key is checked, then the
    /// room's lease is taken on the worker; only then does the runner start. Another node's
    /// running draw holds the lease, so the answer is `draw_running` there too.
    func admit(_ room: Room, refusal: @escaping () -> ClientErrorCode?, start: @escaping () -> ClientErrorCode?,
               then answer: @escaping (ClientErrorCode?) -> Void) {
        let cluster = node
        guard cluster.linkUp, cluster.startsAllowed(nowMs: clock.epochMillis()) else { return answer(.clusterUnavailable) }
        refresh(room) { [unowned self, unowned room] why in
            if let why { return answer(why) }
            if let why = refusal() { return answer(why) }
            // The last draw's end not durable yet (Redis slow or away) is that draw still running.
            guard !room.leasePending, room.runner?.session.canStart ?? true, !ownDraws.isAppending(room.name) else {
                return answer(.drawRunning)
            }
            room.awaitLease(true)
            cluster.leases.acquire(room.name) { [unowned self, unowned room] result in
                switch result {
                case .acquired(let token, let leftover):
                    cluster.storeFull.wrote()
                    receiver.saw(token, in: room.name)
                    guard let leftover else {
                        // The lease was free, so the draw this node may still show running
                        // (another node's, whose end it missed at its restart or Redis') is over:
                        // its viewers get that end before anything of the new draw.
                        guard room.remote.head != nil, let shown = room.remote.drawId else {
                            return begin(room, start: start, then: answer)
                        }
                        return endMissed(shown, in: room) { [unowned self, unowned room] in begin(room, start: start, then: answer) }
                    }
                    // A draw its holder never ended (it is gone, and no takeover came yet): ended
                    // first, under this lease, so one draw runs at a time; this node's viewers are
                    // shown that end before anything of the new draw (the channel's copy of it
                    // could come after the new draw's first step, which the receiver then drops).
                    // The lease stays pending meanwhile, so it is not given back as idle.
                    ownDraws.endLeftover(leftover, in: room.name, token: token) { [unowned self, unowned room] end in
                        receiver.showClusterEnd(of: leftover.drawId, end, in: room)
                        begin(room, start: start, then: answer)
                    }
                case .heldElsewhere:
                    refused(room, .drawRunning, then: answer)
                case .unavailable(let reason):
                    logger.warning("could not take a room's draw lease", metadata: ["room": "\(room.name)", "error": "\(reason)"])
                    refused(room, .clusterUnavailable, then: answer)
                case .full(let reason):
                    // Logged once per episode (`ClusterStoreFull`), not once per refused start.
                    cluster.storeFull.refused("a draw's start", reason: reason)
                    refused(room, .clusterFull, then: answer)
                }
            }
        }
    }

    /// How long a start waits for the stored view that holds the end of a draw this node missed
    /// (a Redis round trip; past it the draw is over here all the same).
    static let missedEndWaitNanos: UInt64 = 1_000_000_000

    /// Shows the viewers the end of `shown`, read from the room's stored view, then `go`es on;
    /// once, at most `missedEndWaitNanos` later (the read failed or is slow).
    private func endMissed(_ shown: String, in room: Room, then go: @escaping () -> Void) {
        var pending = true
        var timer: (any ServiceTimer)?
        let finish = { [unowned self, unowned room] (view: StoredRoomView?) in
            guard pending else { return }
            pending = false
            timer?.cancel()
            timer = nil   // it holds this closure: no cycle left behind
            receiver.endMissed(of: shown, view: view, in: room)
            go()
        }
        timer = loop.makeTimer { finish(nil) }
        timer?.schedule(afterNanos: Self.missedEndWaitNanos)
        node.readView(room: room.name) { finish($0) }
    }

    /// The lease was not granted: the start is refused for `why`, and the room waits for it no
    /// more (a start still pending would refuse every later one as `draw_running`).
    private func refused(_ room: Room, _ why: ClientErrorCode, then answer: (ClientErrorCode?) -> Void) {
        room.awaitLease(false)
        directory.roomActivity(room)
        answer(why)
    }

    /// The lease is this node's: the runner starts, or the lease goes back with the reason.
    private func begin(_ room: Room, start: () -> ClientErrorCode?, then answer: (ClientErrorCode?) -> Void) {
        room.awaitLease(false)
        defer { directory.roomActivity(room) }
        let why: ClientErrorCode? = phase.shuttingDown ? .shuttingDown : room.deleting ? .drawRunning : start()
        guard why == nil else {
            node.leases.release(room.name)
            return answer(phase.shuttingDown ? .shuttingDown : why)
        }
        answer(nil)
    }

    /// After any activity: a lease whose draw is over (finished, failed, aborted, recorded) is
    /// given back.
    func activity(in room: Room) {
        // Kept while a step of the draw (its end) is not durable in the cluster yet (Redis slow
        // or away): the lease is taken back at the next renewal once Redis returns, so no other
        // node starts the next draw before that end reached everyone.
        guard node.leases.holds(room.name), !room.leasePending, !room.isBusy,
              !ownDraws.isAppending(room.name) else { return }
        node.leases.release(room.name)
    }
}
