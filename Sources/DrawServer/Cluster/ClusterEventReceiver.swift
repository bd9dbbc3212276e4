import DrawCore
import DrawPresentation
import Logging

/// Other nodes' draws as this node shows them (issue 27, docs/SCALING.md "Fencing": "receivers
/// are strict"): each message on a room's channel is checked against what this node saw end
/// (`DrawTombstones`), then shown to this node's viewers and folded into the room's snapshot;
/// what no node sent is counted and dropped (`DroppedEnvelopeLog`); a view read from the
/// cluster is taken only when it is not older than what the viewers were shown (`adoptView`,
/// `resync`); and a draw of this node's that the cluster refused is shown ending as the cluster
/// ended it (`showClusterEnd`). The other direction — this node's own draws going out — is
/// `FencedDraws`'. Service thread only.
final class ClusterEventReceiver {
    private let node: ClusterNode
    private let clock: any DrawClock
    private let logger: Logger
    private let entrantLists: EntrantLists
    /// The owners this one works with, set once they exist (`attach`).
    private unowned(unsafe) var directory: RoomDirectory!
    private unowned(unsafe) var broadcaster: RoomBroadcaster!
    /// Reads a room's record again (`ClusterRooms.refresh`): a `room` message of another node
    /// changed it there. `done` gets `nil` to go on.
    private var refresh: (_ room: Room, _ done: @escaping (ClientErrorCode?) -> Void) -> Void = { _, done in done(nil) }
    /// The draws seen ending in each room: nothing of them is shown after (`received`).
    private var tombstones = DrawTombstones()
    /// Messages no node sent, counted between the warnings that report them.
    private var droppedLog = DroppedEnvelopeLog()
    /// Other nodes' messages held back in a room whose viewers still wait for the cluster's end
    /// of this node's refused draw (`showClusterEnd` reading the view): a newer draw's `loading`
    /// or `started` must not reach them before that end (`HeldEvents`).
    private var held: [String: HeldEvents] = [:]

    init(node: ClusterNode, clock: any DrawClock, logger: Logger, entrantLists: EntrantLists) {
        self.node = node
        self.clock = clock
        self.logger = logger
        self.entrantLists = entrantLists
    }

    /// Wires the owners in and starts taking the channel's messages and the views read back
    /// after a takeover.
    func attach(directory: RoomDirectory, broadcaster: RoomBroadcaster,
                refresh: @escaping (_ room: Room, _ done: @escaping (ClientErrorCode?) -> Void) -> Void) {
        self.directory = directory
        self.broadcaster = broadcaster
        self.refresh = refresh
        node.eventArrived = { [unowned self] room, payload in received(room: room, payload) }
        node.eventDropped = { [unowned self] room, why in dropped(room: room, why) }
        node.viewArrived = { [unowned self] room, view in clusterView(room: room, view) }
    }

    private var registry: RoomRegistry { directory.registry }

    // MARK: What this node knows of draws' ends and leases

    /// A lease with `token` holds `room` (this node was granted it): events under older ones are
    /// stale from now on.
    func saw(_ token: UInt64, in room: String) { tombstones.saw(token, in: room) }

    /// This node's own draw `drawId` ended in `room` (so a view read later, still without its
    /// last entries, is not shown as if it ran on).
    func ownEnded(_ drawId: String, in room: String) { tombstones.end(drawId, in: room) }

    /// Whether draw `drawId` ended in `room` as far as this node knows (its own or another's).
    func hasEnded(_ drawId: String, in room: String) -> Bool { tombstones.hasEnded(drawId, in: room) }

    /// `room` left memory: what was kept for it goes.
    func forget(_ room: String) {
        tombstones.forget(room)
        held[room] = nil
    }

    // MARK: The channel's messages

    /// A message on a room's channel (a job from the subscriber's thread): another node's draw event. Shown to
    /// this node's viewers as it came, and folded into the room's snapshot.
    private func received(room name: String, _ payload: [UInt8]) {
        if held[name] != nil {
            if held[name]?.hold(payload, nowNanos: clock.monotonicNanos()) == true { return }
            // The view read did not answer in time: what was held goes on, in its order.
            release(name)
        }
        let cluster = node
        guard let envelope = ClusterEnvelope.decode(payload) else { return dropped(room: name, .malformed) }
        guard envelope.node != cluster.nodeId, let room = registry[name] else { return }
        // One draw, one end: once this node saw a draw end (a takeover's `interrupted` included),
        // a node that wakes up after a pause past its lease cannot show more of it here; nor
        // anything under a lease older than the newest this node saw for the room; nor a round
        // of a draw other than the one the room shows.
        if tombstones.isStale(envelope, showing: room.remote.drawId, in: name) {
            cluster.metrics.staleEventDropped()
            logger.debug("dropped a stale event of another node: its draw ended, its lease is older, or it is not the draw shown", metadata: [
                "room": "\(name)", "drawId": "\(envelope.drawId ?? "-")", "kind": "\(envelope.kind.rawValue)",
                "node": "\(envelope.node)", "token": "\(envelope.token.map(String.init) ?? "-")",
            ])
            return
        }
        if envelope.kind == .deleted {
            if !room.deleting, !room.hasWork { directory.finishDeletion(of: room) }
            return
        }
        if envelope.kind == .room {
            // The list or settings changed through another node: read the room's record again
            // (so this node's snapshots agree), then show the change as it was sent.
            return refresh(room) { [unowned self, unowned room] refusal in
                if refusal == nil { broadcaster.broadcast(envelope.wire, in: room) }
            }
        }
        guard !room.isBusy else { return takenOver(room, by: envelope) }
        if envelope.kind == .loading || envelope.kind == .started, room.remote.head != nil,
           let shown = room.remote.drawId, envelope.drawId != shown {
            // Known ended here (its end shown, or given up on): nothing to read, only to forget.
            guard tombstones.hasEnded(shown, in: name) || node.services.views == nil else {
                return missedEnd(of: shown, before: payload, in: room)
            }
            room.remote.endShown(lastResult: nil)
        }
        if envelope.kind == .round, let index = envelope.index {
            // A round of a draw this node's viewers were never shown the start of (it missed
            // `started`: paused, or busy with its own draw the cluster then refused): not shown
            // bare; the view is read and the viewers get the draw as a snapshot, rounds so far
            // included. A round the room already holds (from such a snapshot) is not shown twice.
            if room.remote.drawId == nil {
                cluster.metrics.staleEventDropped()
                return cluster.readView(room: name) { [weak self, weak room] view in
                    if let self, let room, let view { resync(room, with: view) }
                }
            }
            if index < room.remote.rounds.count { return }
        }
        if let token = envelope.token { tombstones.saw(token, in: name) }
        if let id = envelope.drawId, let hash = envelope.entrantsHash, !envelope.entrants.isEmpty {
            entrantLists.keep(EntrantList(hash: hash, json: envelope.entrants), drawId: id)
        }
        cluster.metrics.receivedEvent(latenessMs: envelope.kind == .round ? clock.epochMillis() - envelope.plannedAt : 0)
        tombstones.note(envelope.kind, drawId: envelope.drawId, showing: room.remote.drawId, in: name)
        room.remote.apply(envelope)
        if envelope.kind == .round, let index = envelope.index, room.remote.rounds.count <= index {
            // A round this node's view lacks one before (it joined the draw late, or the link
            // dropped a message): read the view again so later snapshots are whole.
            cluster.readView(room: name) { [weak self, weak room] view in
                if let self, let room, let view { self.adoptView(view, in: room) }
            }
        }
        broadcaster.show(envelope.wire, loading: envelope.kind == .loading, in: room)
        directory.roomActivity(room)
    }

    /// A message on a room's channel that is not a node's envelope (a wrong or missing MAC, or
    /// one that does not decode): counted, shown to nobody, and logged at most once per
    /// `DroppedEnvelopeLog.intervalNanos` with how many were dropped since.
    private func dropped(room: String, _ why: DroppedEnvelope) {
        node.metrics.droppedEvent(why)
        guard let count = droppedLog.dropped(nowNanos: clock.monotonicNanos()) else { return }
        logger.warning("dropped a message on a room's cluster channel that no node sent", metadata: [
            "room": "\(room)", "reason": "\(why.rawValue)", "dropped": "\(count)",
        ])
    }

    /// Another node's message while this node runs a draw in the room. Dropped, unless it is
    /// the end of that very draw under a newer lease: a takeover ended it while this node was
    /// paused or cut off past its lease. Then the draw stops here at once and its viewers get
    /// that end, the one every other node's viewers got, before anything of a newer draw that
    /// follows it on the channel (waiting for this node's own refused write or lost lease would
    /// let those through first).
    private func takenOver(_ room: Room, by envelope: ClusterEnvelope) {
        guard envelope.kind.endsDraw, let drawId = envelope.drawId, room.runner?.session.visible.drawId == drawId,
              let token = envelope.token else { return }
        if let mine = node.leases.token(of: room.name), token <= mine { return }
        node.fencedOut(room.name, drawId, StoredDrawEnd(drawId: drawId, wire: envelope.wire))
    }

    /// A new draw's `loading` or `started` while this room still shows another node's draw
    /// `shown` running: this node missed that draw's end (its link, or the room's load for a
    /// joiner, was in between when it was published; the 30-minute soak found it at node and
    /// Redis restarts). The cluster holds that end (durable before visible), so the viewers here
    /// get it first, from the stored view, and then the new draw: never a new draw over one
    /// still shown running. What arrives meanwhile waits (`HeldEvents`, bounded as for a
    /// refused draw's end).
    private func missedEnd(of shown: String, before payload: [UInt8], in room: Room) {
        let name = room.name, now = clock.monotonicNanos()
        var waiting = HeldEvents(sinceNanos: now)
        _ = waiting.hold(payload, nowNanos: now)
        held[name] = waiting
        node.readView(room: name) { [weak self, weak room] view in
            guard let self else { return }
            defer { release(name) }
            guard let room, !room.isBusy else { return }
            endMissed(of: shown, view: view, in: room)
        }
    }

    /// The room shows another node's draw `shown` running, which is over (a new draw's first
    /// step came, or this node took the room's free lease to start one): its viewers get the end
    /// the cluster recorded, from `view` (the room's stored view), and the room shows no draw
    /// running any more. Without that end in the view (`nil`: it could not be read), the draw is
    /// over here all the same, and the viewers get a snapshot that shows it so.
    func endMissed(of shown: String, view: StoredRoomView?, in room: Room) {
        let name = room.name
        guard room.remote.drawId == shown, !tombstones.hasEnded(shown, in: name) else { return }
        let end = view?.lastEnd.flatMap { $0.drawId == shown ? $0 : nil }
        if let end { showEnd(end, in: room) } else { tombstones.end(shown, in: name) }
        room.remote.endShown(lastResult: end == nil ? nil : view?.lastResult)
        node.metrics.resynced()
        if end == nil { broadcaster.broadcast(broadcaster.snapshot(of: room, asMessage: true), in: room) }
    }

    /// Lets what was held for `room` go on, in the order it came.
    private func release(_ room: String) {
        guard let events = held.removeValue(forKey: room) else { return }
        for payload in events.payloads { received(room: room, payload) }
    }

    // MARK: Views read from the cluster

    /// Takes the cluster's stored view of the room as what its snapshot shows, unless a draw of
    /// this node's own is what it shows. A view whose running draw is another than the one this
    /// node's viewers were shown (it missed that draw's start) is not taken silently: they get it
    /// as a snapshot (`resync`), or the rounds that follow would reach them without their draw.
    func adoptView(_ view: StoredRoomView, in room: Room) {
        guard !room.isBusy, !showsEnded(view, in: room) else { return }
        endIfRecorded(view, in: room)
        let fresh = RemoteRoomView(stored: view)
        if room.viewers > 0, fresh.drawId != nil, fresh.drawId != room.remote.drawId { return resync(room, with: view) }
        room.remote = fresh
    }

    /// A view read after a reconnect: adopted, and sent to the room's viewers as a `snapshot`,
    /// when it differs from what this node showed. An empty view (Redis restarted empty and
    /// knows nothing of the draw) changes nothing unless `emptyToo`: the takeover check ends a
    /// draw left running, with `emptyToo`, once its lease is free.
    func resync(_ room: Room, with view: StoredRoomView, emptyToo: Bool = false, always: Bool = false) {
        guard !room.isBusy, !showsEnded(view, in: room) else { return }
        endIfRecorded(view, in: room)
        let fresh = RemoteRoomView(stored: view)
        guard always || (emptyToo || fresh != RemoteRoomView()) && fresh != room.remote else { return }
        room.remote = fresh
        node.metrics.resynced()
        broadcaster.broadcast(broadcaster.snapshot(of: room, asMessage: true), in: room)
    }

    /// A view read back records the end of the draw this room still shows running (this node
    /// missed the end: the soak found a list change's re-read taking the view silently, then the
    /// next draw's `loading` over a draw its viewers still saw running): they are shown that end
    /// first. Only an end the view records: a view read before that draw began (older than what
    /// this node heard since) says nothing of it, and must not end it.
    private func endIfRecorded(_ view: StoredRoomView, in room: Room) {
        guard room.remote.head != nil, let shown = room.remote.drawId, view.lastEnd?.drawId == shown else { return }
        endMissed(of: shown, view: view, in: room)
    }

    /// Whether `view` shows a draw running that this node knows has ended (its own, whose last
    /// entries are still on their way to Redis; or one it saw end): such a view is older than
    /// what the viewers here were shown, and never replaces it.
    func showsEnded(_ view: StoredRoomView, in room: Room) -> Bool {
        guard view.head != nil, let id = view.drawId else { return false }
        return hasEnded(id, in: room.name)
    }

    /// A room's view read back after a takeover found nothing to end.
    private func clusterView(room name: String, _ view: StoredRoomView) {
        // The draw is over (its lease was free, nothing escrowed): whatever the view says, even
        // nothing (Redis restarted empty), and the viewers here are told.
        if let room = registry[name] { resync(room, with: view, emptyToo: true) }
    }

    // MARK: The cluster's end of this node's refused draw

    /// This node's draw `drawId` in the room was stopped because the cluster refused it: its
    /// viewers get the end the cluster recorded (`end`, or the view's) — the same one every other
    /// node's viewers got — or, if it recorded none of this draw, a fresh snapshot. Once.
    func showClusterEnd(of drawId: String, _ end: StoredDrawEnd?, in room: Room) {
        let name = room.name
        guard !tombstones.hasEnded(drawId, in: name) else { return }
        if let end, end.drawId == drawId { return showEnd(end, in: room) }
        if held[name] == nil { held[name] = HeldEvents(sinceNanos: clock.monotonicNanos()) }
        node.readView(room: name) { [weak self, weak room] view in
            guard let self else { return }
            defer { release(name) }
            guard let room, !tombstones.hasEnded(drawId, in: name) else { return }
            guard let view else {
                // Unread (Redis away): the draw is over here all the same; its viewers get the
                // room as this node has it, which shows it no longer running.
                tombstones.end(drawId, in: name)
                if room.remote.drawId == drawId { room.remote.endShown(lastResult: nil) }
                return broadcaster.broadcast(broadcaster.snapshot(of: room, asMessage: true), in: room)
            }
            if let end = view.lastEnd, end.drawId == drawId { return showEnd(end, in: room) }
            // The cluster recorded no end of it (a newer draw ended since): the draw is over here
            // all the same, and the viewers get what the view holds now, never that draw as
            // running, even if this node's picture of the room already matches the view. What
            // the view shows ended is over too: nothing of it held back is shown after.
            tombstones.end(drawId, in: name)
            if let newer = view.lastEnd?.drawId { tombstones.end(newer, in: name) }
            resync(room, with: view, emptyToo: true, always: true)
        }
    }

    /// Shows this node's viewers the end the cluster recorded for the draw they were watching.
    private func showEnd(_ end: StoredDrawEnd, in room: Room) {
        tombstones.end(end.drawId, in: room.name)
        broadcaster.broadcast(end.wire, in: room)
    }
}
