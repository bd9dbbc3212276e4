import DrawCore

/// Bodies of the draw-history endpoints (docs/PROTOCOL.md section 5): one page of a room's draws,
/// and one draw's whole record.
///
/// What may be shown is decided before these functions run: `DrawRecord` and `DrawSummary` apply
/// the reveal rules in their initialisers (no seed and only the rounds shown while `running`, no
/// outcome unless `finished`), so a writer cannot leak what a record does not hold. The fields
/// shared with the live messages (players, warnings, schedule, rounds, outcome) are written by
/// `WireMessages`' part writers, so a record reads exactly like the messages viewers received.
///
/// Every field is always present, `null` when it does not apply, so clients read one shape
/// whatever the status.
public enum RecordMessages {
    /// `200` body of `GET /api/rooms/ROOM/draws`: `{"room":…,"draws":[summary…],"nextCursor":…|null}`,
    /// newest first.
    public static func history(room: String, page: DrawPage) -> [UInt8] {
        var w = JSONWriter(capacity: 96 + page.draws.count * 400)
        w.beginObject()
        w.field("room", room)
        w.key("draws"); w.beginArray()
        for summary in page.draws {
            w.beginObject(); writeSummary(summary, into: &w); w.endObject()
        }
        w.endArray()
        w.field("nextCursor", orNull: page.next?.token)
        w.endObject()
        return w.bytes
    }

    /// One history line alone (a JSON object, as `history` lists it), for the cluster's shared
    /// history, which keeps each draw's line as it was written.
    public static func summary(_ s: DrawSummary) -> [UInt8] {
        var w = JSONWriter(capacity: 400)
        w.beginObject(); writeSummary(s, into: &w); w.endObject()
        return w.bytes
    }

    /// The `history` body from lines written by `summary` (the cluster's shared history).
    public static func history(room: String, summaries: [[UInt8]], next: DrawCursor?) -> [UInt8] {
        var w = JSONWriter(capacity: 96 + summaries.reduce(0) { $0 + $1.count + 1 })
        w.beginObject()
        w.field("room", room)
        w.key("draws"); w.beginArray()
        for line in summaries { w.raw(line) }
        w.endArray()
        w.field("nextCursor", orNull: next?.token)
        w.endObject()
        return w.bytes
    }

    /// `200` body of `GET /api/draws/ID`: everything docs/FAIRNESS.md needs to check the draw once
    /// its seed is revealed, plus `verified`, the server's own check of it (`null` while there is
    /// nothing to check: a running or failed draw).
    public static func record(_ r: DrawRecord) -> [UInt8] {
        writeRecord(r).bytes
    }

    /// The `record` body as the cluster keeps it (issue 44): the same bytes, the entrant list
    /// apart, so the shared store keeps the list once under its hash and the record stays small.
    public static func sharedRecord(_ r: DrawRecord) -> SharedRecordBody {
        let (bytes, entrants) = writeRecord(r)
        return SharedRecordBody(splitting: bytes, entrantsAt: entrants)
    }

    /// The `record` body, and where in it the entrant list's array is.
    private static func writeRecord(_ r: DrawRecord) -> (bytes: [UInt8], entrants: Range<Int>) {
        var w = JSONWriter(capacity: 1024 + r.entrants.count * 96 + r.rounds.count * 160)
        w.beginObject()
        writeHeader(drawId: r.drawId, room: r.room, status: r.status, createdAt: r.createdAt,
                    startedAt: r.startedAt, finishedAt: r.finishedAt, into: &w)
        w.key("sources"); w.beginObject()
        w.field("usersUrl", r.sources.usersURL)
        w.field("lotteryUrl", r.sources.lotteryURL)
        w.endObject()
        w.key("entrants")
        let listStart = w.bytes.count
        WireMessages.writePlayers(r.entrants, into: &w)
        let entrants = listStart..<w.bytes.count
        w.key("warnings"); WireMessages.writeWarnings(r.warnings, into: &w)
        w.field("commitment", orNull: r.commitment)
        w.field("entrantsHash", orNull: r.entrantsHash)
        w.key("schedule")
        if let schedule = r.schedule { WireMessages.writeSchedule(schedule, into: &w) } else { w.null() }
        let total = r.schedule?.rounds ?? r.rounds.count
        w.key("rounds"); w.beginArray()
        for round in r.rounds {
            w.beginObject()
            let each = r.revealsEachWinner  // then `round` and `of` count the winner's own flips
            WireMessages.writeRoundBody(round: each ? round.flip : round.round, of: total, pickIndex: round.pickIndex,
                                        player: round.player, sentAt: round.sentAt, winner: each ? round.slot : nil,
                                        into: &w)
            w.field("offsetMs", round.offsetMs)
            w.endObject()
        }
        w.endArray()
        // The same list as `finished.picks`, so tools/verify_draw.py reads a record as it reads
        // a `finished` message.
        w.key("picks"); WireMessages.writePicks(r.rounds.map(\.pickIndex), into: &w)
        w.field("roundsShown", r.roundsShown)
        WireMessages.writeOutcome(r.outcome, into: &w)
        WireMessages.writeWinnerSlots(winners: r.winners, picks: r.status == .finished ? r.winnerPicks : nil, into: &w)
        WireMessages.writeRevealAndRedraw(revealsEachWinner: r.revealsEachWinner, redrawOf: r.redrawOf, into: &w)
        WireMessages.writeBeacon(r.beacon, withValues: true, into: &w)
        w.field("seed", orNull: r.seed?.hex)
        w.key("failure")
        if let failure = r.failure {
            w.beginObject(); w.field("code", failure.code); w.field("message", failure.message); w.endObject()
        } else {
            w.null()
        }
        w.field("abortReason", orNull: r.abortReason)
        w.field("verified", orNull: r.verify()?.isValid)
        w.endObject()
        return (w.bytes, entrants)
    }

    private static func writeSummary(_ s: DrawSummary, into w: inout JSONWriter) {
        writeHeader(drawId: s.drawId, room: s.room, status: s.status, createdAt: s.createdAt,
                    startedAt: s.startedAt, finishedAt: s.finishedAt, into: &w)
        w.field("entrantCount", s.entrantCount)
        w.field("roundsShown", s.roundsShown)
        w.field("commitment", orNull: s.commitment)
        WireMessages.writeOutcome(s.outcome, into: &w)
        // As in a record: `winners` and `winnerPicks` only when k > 1, so one-winner lines read
        // exactly as before; `winnerPicks` is null until the draw has finished.
        WireMessages.writeWinnerSlots(winners: s.winners, picks: s.status == .finished ? s.winnerPicks : nil, into: &w)
        w.field("failureCode", orNull: s.failureCode)
        // A redraw's line names what it replaced and its number; the rest of the link (the
        // winners kept) is in its record. Absent for every other draw: their lines keep their bytes.
        if let link = s.redrawOf {
            w.key("redrawOf"); w.beginObject()
            w.field("drawId", link.drawId)
            w.key("removed"); WireMessages.writePlayer(link.removed, into: &w)
            if let number = link.number { w.field("number", number) }
            w.endObject()
        }
    }

    /// drawId, room, status, createdAt, startedAt, finishedAt: the head of a summary and a record.
    private static func writeHeader(drawId: String, room: String, status: DrawStatus, createdAt: Double,
                                    startedAt: Double?, finishedAt: Double?, into w: inout JSONWriter) {
        w.field("drawId", drawId)
        w.field("room", room)
        w.field("status", status.rawValue)
        w.field("createdAt", millis: createdAt)
        w.field("startedAt", millisOrNull: startedAt)
        w.field("finishedAt", millisOrNull: finishedAt)
    }
}
