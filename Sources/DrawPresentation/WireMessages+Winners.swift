import DrawCore

/// The messages of a draw that reveals each winner with its own flips (docs/PROTOCOL.md,
/// `winner` and `advance`). Added within v2: a client that knows neither ignores them and still gets
/// every winner from `finished` (`winners`, `winnerPicks`).
extension WireMessages {
    /// `winner`: winner `slot` is known. `next` is `"auto"` (winner `slot + 1`'s flips start at
    /// `nextStartsAt`), `"host"` (they wait for the host's "draw the next winner") or `"finished"`
    /// (that was the last; `finished` follows at once).
    public static func winner(_ plan: DrawPlan, slot: Int, sentAt: Double, next: WinnerNext) -> [UInt8] {
        let pick = plan.winnerPicks[slot - 1]
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("type", "winner")
        w.field("drawId", plan.drawId)
        w.field("winner", slot)
        w.field("of", plan.winners)
        w.field("index", pick.pickIndex)
        writePlayerFields(pick.player, into: &w)
        w.field("sentAt", millis: sentAt)
        switch next {
        case .runsOn(let startsAt):
            w.field("next", "auto")
            w.field("nextStartsAt", millis: startsAt)
        case .awaitingHost:
            w.field("next", "host")
        case .finished:
            w.field("next", "finished")
        }
        w.endObject()
        return w.bytes
    }

    /// `advance`: the host asked for the next winner; its flips follow at `startsAt` plus the
    /// schedule's offsets, as winner 1's follow `started`.
    public static func nextWinner(_ plan: DrawPlan, slot: Int, startsAt: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.field("type", "advance")
        w.field("drawId", plan.drawId)
        w.field("winner", slot)
        w.field("startsAt", millis: startsAt)
        w.endObject()
        return w.bytes
    }
}
