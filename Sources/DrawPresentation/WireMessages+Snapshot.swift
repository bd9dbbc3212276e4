import DrawCore

extension WireMessages {
    /// `snapshot`: the first message on every connection. With `asMessage: false` it is the same
    /// object without `"type"`, as `GET /api/rooms/ROOM` returns it.
    ///
    /// A running draw's seed is deliberately absent: only `finished`/`aborted` reveal it.
    public static func snapshot(_ view: RoomView, serverTime: Double, asMessage: Bool = true) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        if asMessage { w.field("type", "snapshot") }
        w.field("protocol", protocolVersion)
        w.field("room", view.room)
        w.field("viewers", view.viewers)
        w.field("serverTime", millis: serverTime)
        w.key("draw")
        switch view.current {
        case .idle:
            w.null()
        case .loading:
            w.beginObject(); w.field("phase", "loading"); w.endObject()
        case .running(let plan, let startedAt, let shown):
            w.beginObject()
            w.field("phase", "running")
            writePlanHeader(plan, startedAt: startedAt, into: &w)
            w.key("rounds"); w.beginArray()
            for (i, sentAt) in shown.enumerated() where i < plan.rounds.count {
                w.beginObject(); writeRoundBody(plan.rounds[i], of: plan.rounds.count, sentAt: sentAt, into: &w); w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.key("lastResult")
        if let last = view.lastResult {
            w.beginObject(); writeFinishedBody(last, into: &w); w.endObject()
        } else {
            w.null()
        }
        w.endObject()
        return w.bytes
    }
}
