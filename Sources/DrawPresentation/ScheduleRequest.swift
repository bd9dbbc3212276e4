import DrawCore

/// The body of `PUT /api/rooms/ROOM/schedule` (issue 30): `{"at":"<RFC 3339>"}`, optionally with
/// the start option `"reveal"` of `POST /api/rooms/ROOM/draws`.
public enum ScheduleRequest {
    /// The time asked for (epoch ms) and the reveal option; `bad_json` when the body is no JSON
    /// object, `bad_time` when `at` is missing or not an RFC 3339 date-time.
    public static func parse(_ body: [UInt8]) -> Result<(at: Double, reveal: WinnerRevealMode?), ClientErrorCode> {
        guard let fields = InboundJSON.object(Fields.self, from: body) else { return .failure(.badJSON) }
        guard let text = fields.at, let at = RFC3339Time.epochMs(text) else { return .failure(.badTime) }
        guard let reveal = fields.reveal else { return .success((at, nil)) }
        guard let mode = WinnerRevealMode(rawValue: reveal) else { return .failure(.invalidSettings) }
        return .success((at, mode))
    }

    /// The code for a time outside the server's window (`ScheduleWindow.refusal`).
    public static func code(_ refusal: ScheduleRefusal) -> ClientErrorCode {
        switch refusal {
        case .unreadableTime: return .badTime
        case .inThePast: return .timePassed
        case .tooSoon: return .tooSoon
        case .tooFarAhead: return .tooFarAhead
        }
    }

    private struct Fields: Decodable {
        var at: String?
        var reveal: String?

        enum CodingKeys: String, CodingKey { case at, reveal }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            at = try? c.decodeIfPresent(String.self, forKey: .at)
            reveal = try? c.decodeIfPresent(String.self, forKey: .reveal)
        }
    }
}

/// How a scheduled draw's commitment is written: in the room's snapshot and `room` messages
/// (`scheduled`), in the answer to the host, and as the record `GET /api/draws/ID` serves while
/// the draw waits.
public enum ScheduledDrawJSON {
    /// `{"drawId","at","atText","scheduledAt","commitment","entrantsHash","entrants","winners"}`,
    /// and for a draw committed to a beacon round `"beacon":{"chain","round","at"}` as in `started`.
    /// `commitment` is the seed's hash, as in `started`.
    public static func write(_ c: ScheduledDrawCommitment, into w: inout JSONWriter) {
        w.beginObject()
        writeFields(c, into: &w)
        w.endObject()
    }

    static func writeFields(_ c: ScheduledDrawCommitment, count: Bool = true, into w: inout JSONWriter) {
        w.field("drawId", c.drawId)
        w.field("at", millis: c.at)
        w.field("atText", RFC3339Time.text(epochMs: c.at) ?? "")
        w.field("scheduledAt", millis: c.createdAt)
        w.field("commitment", c.seedHash)
        w.field("entrantsHash", c.entrantsHash)
        if count { w.field("entrants", c.entrantCount) }
        w.field("winners", c.winners)
        WireMessages.writeBeacon(c.beacon, withValues: false, into: &w)
    }

    /// The answer to the host's `PUT …/schedule` (201).
    public static func scheduled(room: String, _ c: ScheduledDrawCommitment) -> [UInt8] {
        var w = JSONWriter(capacity: 512)
        w.beginObject()
        w.field("room", room)
        w.field("status", "scheduled")
        writeFields(c, into: &w)
        w.endObject()
        return w.bytes
    }

    /// The answer to the host's `DELETE …/schedule` (200): the draw, cancelled, with its seed.
    public static func cancelled(room: String, drawId: String, seed: Seed) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.beginObject()
        w.field("room", room)
        w.field("drawId", drawId)
        w.field("status", "cancelled")
        w.field("seed", seed.hex)
        w.endObject()
        return w.bytes
    }

    /// `GET /api/draws/ID` of a draw still waiting for its time: its commitment and its entrants
    /// (so anyone can check the entrants hash now), never its seed. `status` is `scheduled`.
    public static func record(_ draw: ScheduledDraw) -> [UInt8] {
        let c = draw.commitment
        var w = JSONWriter(capacity: 512 + draw.entrants.count * 96)
        w.beginObject()
        w.field("room", draw.room)
        w.field("status", "scheduled")
        writeFields(c, count: false, into: &w)
        w.key("entrants"); w.raw(EntrantsEncoding.canonicalJSON(draw.entrants))
        w.endObject()
        return w.bytes
    }
}
