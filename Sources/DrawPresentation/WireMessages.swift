import DrawCore

/// Builds every server-to-client message of docs/PROTOCOL.md as the exact bytes of one JSON text
/// frame. Each function is called once per message, not once per client: the server shares the
/// result across the whole room.
public enum WireMessages {
    /// The protocol version these functions write (`v1(_:entrants:)` turns them into v1).
    public static let protocolVersion = WireVersion.latest.rawValue

    /// Maps a domain event to its wire message. `room` names the room the event belongs to;
    /// `viewers`, when given, is the room's viewer count that a `round` carries.
    public static func encode(_ event: DrawEvent, room: String, viewers: Int? = nil) -> [UInt8] {
        switch event {
        case .loading(let at): return loading(room: room, at: at)
        case .started(let plan, let startedAt): return started(plan, startedAt: startedAt)
        case .round(let plan, let index, let sentAt): return round(plan, index: index, sentAt: sentAt, viewers: viewers)
        case .finished(let plan, let startedAt, let finishedAt):
            return finished(FinishedDraw(plan: plan, startedAt: startedAt, finishedAt: finishedAt))
        case .failed(let error): return failed(error)
        case .aborted(let plan, let shown, let reason): return aborted(plan, roundsShown: shown, reason: reason)
        case .winner(let plan, let slot, let sentAt, let next): return winner(plan, slot: slot, sentAt: sentAt, next: next)
        case .nextWinner(let plan, let slot, let startsAt): return nextWinner(plan, slot: slot, startsAt: startsAt)
        }
    }

    /// `loading`: a host started a draw and players are being fetched.
    public static func loading(room: String, at: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 64)
        w.beginObject(); w.field("type", "loading"); w.field("room", room); w.field("at", millis: at); w.endObject()
        return w.bytes
    }

    /// `started`: the plan's public part (never the seed), with the entrants' count and hash but
    /// not the list (v2; `GET /api/draws/ID/entrants` serves it).
    public static func started(_ plan: DrawPlan, startedAt: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 512 + plan.warnings.count * 128)
        w.beginObject()
        w.field("type", "started")
        writePlanHeader(plan, startedAt: startedAt, into: &w)
        w.endObject()
        return w.bytes
    }

    /// `round`: one flip. `sentAt` is taken when its fan-out starts. `viewers` is the room's
    /// viewer count: while a draw runs, rounds carry it instead of separate `presence` messages,
    /// so that no other fan-out competes with the flips. It is not part of the draw's record.
    public static func round(_ plan: DrawPlan, index: Int, sentAt: Double, viewers: Int? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("type", "round")
        w.field("drawId", plan.drawId)
        writeRoundBody(plan, index: index, sentAt: sentAt, into: &w)
        if let viewers { w.field("viewers", viewers) }
        w.endObject()
        return w.bytes
    }

    /// `finished`: the outcome and the revealed seed, with everything needed to verify but the
    /// entrants' list (v2: its hash pins it; `GET /api/draws/ID/entrants` serves it).
    public static func finished(_ f: FinishedDraw) -> [UInt8] {
        var w = JSONWriter(capacity: 512 + f.plan.rounds.count * 128)
        w.beginObject()
        w.field("type", "finished")
        writeFinishedBody(f, into: &w)
        w.endObject()
        return w.bytes
    }

    /// `failed`: no draw could be planned.
    public static func failed(_ error: DrawError) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("type", "failed")
        w.field("code", error.code)
        w.field("message", error.message)
        w.key("warnings"); writeWarnings(error.warnings, into: &w)
        w.endObject()
        return w.bytes
    }

    /// `aborted`: a running draw stopped early; the seed is revealed.
    public static func aborted(_ plan: DrawPlan, roundsShown: Int, reason: String) -> [UInt8] {
        aborted(drawId: plan.drawId, roundsShown: roundsShown, reason: reason, seedHex: plan.seed.hex)
    }

    /// `aborted` from its fields: how another node of a cluster ends the draw of a node that
    /// died, from the seed escrow (`reason` `interrupted`).
    public static func aborted(drawId: String, roundsShown: Int, reason: String, seedHex: String) -> [UInt8] {
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("type", "aborted")
        w.field("drawId", drawId)
        w.field("reason", reason)
        w.field("roundsShown", roundsShown)
        w.field("seed", seedHex)
        w.endObject()
        return w.bytes
    }

    /// `presence`: the room's viewer count.
    public static func presence(viewers: Int) -> [UInt8] {
        var w = JSONWriter(capacity: 40)
        w.beginObject(); w.field("type", "presence"); w.field("viewers", viewers); w.endObject()
        return w.bytes
    }

    /// `error`: the client's last message was refused.
    public static func error(_ code: ClientErrorCode, message: String? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.field("type", "error")
        w.field("code", code.rawValue)
        w.field("message", message ?? code.defaultMessage)
        w.endObject()
        return w.bytes
    }

    /// `pong`, echoing the ping's id when it had one.
    public static func pong(id: PingID?, serverTime: Double) -> [UInt8] {
        var w = JSONWriter(capacity: 80)
        w.beginObject()
        w.field("type", "pong")
        switch id {
        case .int(let n)?: w.field("id", n)
        case .string(let s)?: w.field("id", s)
        case nil: break
        }
        w.field("serverTime", millis: serverTime)
        w.endObject()
        return w.bytes
    }
}
