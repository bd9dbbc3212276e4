import DrawCore

extension WireMessages {
    /// `snapshot`: the first message on every connection. With `asMessage: false` it is the same
    /// object without `"type"`, as `GET /api/rooms/ROOM` returns it.
    ///
    /// A running draw's seed is deliberately absent: only `finished`/`aborted` reveal it.
    public static func snapshot(_ view: RoomView, serverTime: Double, asMessage: Bool = true) -> [UInt8] {
        snapshot(room: view.room, viewers: view.viewers, serverTime: serverTime, draw: snapshotDraw(view.current),
                 lastResult: snapshotLastResult(view.lastResult), info: view.info, asMessage: asMessage)
    }

    /// The snapshot's `draw`: `null`, loading, or the running draw with the rounds shown so far.
    /// The costly part of a snapshot (a running draw lists its rounds and, in v1, every entrant),
    /// and the same for every joiner until the draw moves on, so a room keeps it
    /// (`Room.snapshotParts`).
    /// `progress` is where a draw that reveals each winner stands (`DrawSession.revealProgress`).
    public static func snapshotDraw(_ current: RoomView.Current, progress: RevealProgress? = nil) -> [UInt8] {
        switch current {
        case .idle:
            return Array("null".utf8)
        case .loading:
            return snapshotLoading
        case .running(let plan, let startedAt, let shown):
            let rounds = shown.enumerated().filter { $0.offset < plan.rounds.count }
                .map { snapshotRound(plan, index: $0.offset, sentAt: $0.element) }
            let tail = progress.map { snapshotProgress($0, plan: plan) } ?? []
            return snapshotRunning(head: snapshotDrawHead(plan, startedAt: startedAt), rounds: rounds, tail: tail)
        }
    }

    /// A snapshot from its parts as JSON values: `draw` and `lastResult` as the functions below
    /// write them. Cluster mode builds them on the node running the draw and ships them to the
    /// others (`ClusterEnvelope`), which add their own `viewers`, `serverTime` and `info` (the
    /// room's settings and own list, which every node reads from the room store).
    public static func snapshot(room: String, viewers: Int, serverTime: Double, draw: [UInt8],
                                lastResult: [UInt8], info: RoomInfo? = nil, asMessage: Bool = true) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + draw.count + lastResult.count)
        w.beginObject()
        if asMessage { w.field("type", "snapshot") }
        w.field("protocol", protocolVersion)
        w.field("room", room)
        w.field("viewers", viewers)
        w.field("serverTime", millis: serverTime)
        w.key("draw"); w.raw(draw)
        w.key("lastResult"); w.raw(lastResult)
        info?.write(into: &w)
        w.endObject()
        return w.bytes
    }

    /// The snapshot's `draw` while players load.
    public static let snapshotLoading = Array(#"{"phase":"loading"}"#.utf8)

    /// The snapshot's running `draw` up to its rounds: `{"phase":"running",<plan header>,"rounds":[`.
    public static func snapshotDrawHead(_ plan: DrawPlan, startedAt: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 512 + plan.warnings.count * 128)
        w.beginObject()
        w.field("phase", "running")
        writePlanHeader(plan, startedAt: startedAt, into: &w)
        w.key("rounds")
        return w.bytes + [UInt8(ascii: "[")]
    }

    /// One shown round as the snapshot lists it.
    public static func snapshotRound(_ plan: DrawPlan, index: Int, sentAt: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 160)
        w.beginObject(); writeRoundBody(plan, index: index, sentAt: sentAt, into: &w); w.endObject()
        return w.bytes
    }

    /// A running `draw`: its head, then the rounds shown so far.
    /// `tail` holds members after the rounds (`,"progress":…`), empty for most draws.
    public static func snapshotRunning(head: [UInt8], rounds: [[UInt8]], tail: [UInt8] = []) -> [UInt8] {
        var bytes = head
        for (i, round) in rounds.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += round
        }
        return bytes + [UInt8(ascii: "]")] + tail + [UInt8(ascii: "}")]
    }

    /// `,"progress":{"winner":s,"winnerStartedAt":…,"awaitingHost":…,"revealed":[slots…]}`: the
    /// winner being shown (or, while `awaitingHost`, the one just revealed) and the winners
    /// revealed so far, so a viewer joining between winners sees them.
    static func snapshotProgress(_ p: RevealProgress, plan: DrawPlan) -> [UInt8] {
        snapshotProgressTail(snapshotProgressObject(p, plan: plan))
    }

    /// The `progress` object alone, as cluster mode ships it to the other nodes (`ClusterEnvelope`).
    public static func snapshotProgressObject(_ p: RevealProgress, plan: DrawPlan) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + p.revealed * 128)
        w.beginObject()
        w.field("winner", p.slot)
        w.field("winnerStartedAt", millis: p.slotStartedAt)
        w.field("awaitingHost", p.awaitingHost)
        w.key("revealed"); w.beginArray()
        for pick in plan.winnerPicks.prefix(p.revealed) { writeSlot(pick, into: &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// The running draw's members after its rounds for a `progress` object (empty: none).
    public static func snapshotProgressTail(_ object: [UInt8]) -> [UInt8] {
        object.isEmpty ? [] : Array(#","progress":"#.utf8) + object
    }

    /// The snapshot's `lastResult`: the finished draw, or `null`.
    public static func snapshotLastResult(_ last: FinishedDraw?) -> [UInt8] {
        guard let last else { return Array("null".utf8) }
        var w = JSONWriter(capacity: 512 + last.plan.rounds.count * 128)
        w.beginObject(); writeFinishedBody(last, into: &w); w.endObject()
        return w.bytes
    }
}
