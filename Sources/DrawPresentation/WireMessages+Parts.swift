import DrawCore

/// The pieces several messages share (plan header, rounds, players, results), so each field is
/// written by exactly one function.
extension WireMessages {
    static func writePlayer(_ p: Player, into w: inout JSONWriter) {
        w.beginObject(); writePlayerFields(p, into: &w); w.endObject()
    }

    /// userId, name, username, regDate, void: a player's fields, inside an object already begun.
    static func writePlayerFields(_ p: Player, into w: inout JSONWriter) {
        w.field("userId", p.userId)
        w.field("name", p.name)
        w.field("username", p.username)
        w.field("regDate", p.regDate.description)
        w.field("void", p.isVoid)
    }

    static func writePlayers(_ players: [Player], into w: inout JSONWriter) {
        w.beginArray()
        for p in players { writePlayer(p, into: &w) }
        w.endArray()
    }

    static func writeWarnings(_ warnings: [MergeWarning], into w: inout JSONWriter) {
        w.beginArray()
        for m in warnings {
            w.beginObject(); w.field("code", m.code); w.field("userId", m.userId); w.field("message", m.message); w.endObject()
        }
        w.endArray()
    }

    static func writeSchedule(_ s: RoundSchedule, into w: inout JSONWriter) {
        w.beginObject()
        w.field("rounds", s.rounds)
        // Only with a countdown, so a schedule without one is written as it always was.
        if s.countdownMs > 0 { w.field("countdownMs", s.countdownMs) }
        w.key("offsetsMs"); w.beginArray(); for o in s.roundOffsetsMs { w.int(o) }; w.endArray()
        w.field("finishOffsetMs", s.finishOffsetMs)
        w.endObject()
    }

    /// drawId, entrantCount, warnings, commitment, entrantsHash, schedule, winners (only when
    /// more than one), startedAt. `entrantCount` right after `drawId`: `v1(_:entrants:)` finds the
    /// draw whose list goes there by that pair.
    static func writePlanHeader(_ plan: DrawPlan, startedAt: Double, into w: inout JSONWriter) {
        w.field("drawId", plan.drawId)
        w.field("entrantCount", plan.entrants.count)
        w.key("warnings"); writeWarnings(plan.warnings, into: &w)
        w.field("commitment", plan.commitment)
        w.field("entrantsHash", plan.entrantsHash)
        w.key("schedule"); writeSchedule(plan.schedule, into: &w)
        // Published before round 1 so the count cannot be chosen after the seed is known.
        if plan.winners > 1 { w.field("winners", plan.winners) }
        writeRevealAndRedraw(revealsEachWinner: plan.revealsEachWinner, redrawOf: plan.redrawOf, into: &w)
        writeBeacon(plan.beacon, withValues: false, into: &w)
        w.field("startedAt", millis: startedAt)
    }

    /// round, of, index, userId, name, username, sentAt; then `winner` in a draw that reveals
    /// each winner, whose `round` and `of` count that winner's flips.
    static func writeRoundBody(_ plan: DrawPlan, index: Int, sentAt: Double, into w: inout JSONWriter) {
        let r = plan.rounds[index]
        let each = plan.revealsEachWinner
        writeRoundBody(round: each ? r.flip : r.round, of: each ? plan.roundsPerWinner : plan.rounds.count,
                       pickIndex: r.pickIndex, player: r.player, sentAt: sentAt, winner: each ? r.slot : nil, into: &w)
    }

    /// The same fields for any round; `sentAt` is `null` for a recorded round that was never shown.
    static func writeRoundBody(round: Int, of total: Int, pickIndex: Int, player: Player, sentAt: Double?,
                               winner: Int? = nil, into w: inout JSONWriter) {
        w.field("round", round)
        w.field("of", total)
        if let winner { w.field("winner", winner) }
        w.field("index", pickIndex)
        w.field("userId", player.userId)
        w.field("name", player.name)
        w.field("username", player.username)
        w.field("sentAt", millisOrNull: sentAt)
    }

    /// outcome (`winner`/`void`), drawn, winner — all `null` when there is no result (yet).
    static func writeOutcome(_ outcome: DrawOutcome?, into w: inout JSONWriter) {
        switch outcome {
        case .winner(let p)?:
            w.field("outcome", DrawOutcome.winner(p).wireName)
            w.key("drawn"); writePlayer(p, into: &w)
            w.key("winner"); writePlayer(p, into: &w)
        case .noWinner(let p)?:
            w.field("outcome", DrawOutcome.noWinner(drawn: p).wireName)
            w.key("drawn"); writePlayer(p, into: &w)
            w.key("winner"); w.null()
        case nil:
            w.key("outcome"); w.null()
            w.key("drawn"); w.null()
            w.key("winner"); w.null()
        }
    }

    /// winners, winnerPicks: written only for a draw with more than one winner, so a one-winner
    /// message or record keeps the exact bytes it always had. `picks` is `nil` when no slot was
    /// decided (a record of a draw that did not finish): `winnerPicks` is then `null`.
    static func writeWinnerSlots(winners: Int, picks: [WinnerPick]?, into w: inout JSONWriter) {
        guard winners > 1 else { return }
        w.field("winners", winners)
        w.key("winnerPicks")
        guard let picks else { w.null(); return }
        w.beginArray()
        for pick in picks {
            w.beginObject(); w.field("index", pick.pickIndex); writePlayerFields(pick.player, into: &w); w.endObject()
        }
        w.endArray()
    }

    /// A result (v2): the outcome and the seed, the entrants' count and hash, the players the
    /// rounds picked (`picked`, what the page shows of them) and the picks; no list.
    static func writeFinishedBody(_ f: FinishedDraw, into w: inout JSONWriter) {
        let plan = f.plan
        w.field("drawId", plan.drawId)
        w.field("entrantCount", plan.entrants.count)
        writeOutcome(plan.outcome, into: &w)
        writeWinnerSlots(winners: plan.winners, picks: plan.winnerPicks, into: &w)
        w.field("seed", plan.seed.hex)
        w.field("commitment", plan.commitment)
        w.field("entrantsHash", plan.entrantsHash)
        w.key("picked"); writePicked(plan.rounds.map { ($0.pickIndex, $0.player) }, into: &w)
        w.key("picks"); writePicks(plan.rounds.map(\.pickIndex), into: &w)
        // Flips per winner when each winner has its own (`picks` then holds every winner's).
        w.field("rounds", plan.revealsEachWinner ? plan.roundsPerWinner : plan.rounds.count)
        writeRevealAndRedraw(revealsEachWinner: plan.revealsEachWinner, redrawOf: plan.redrawOf, into: &w)
        writeBeacon(plan.beacon, withValues: true, into: &w)
        w.field("startedAt", millis: f.startedAt)
        w.field("finishedAt", millis: f.finishedAt)
    }

    /// The entries the rounds picked, each once, by index: `[{"index":3,"userId":…,"void":…},…]`.
    static func writePicked(_ picks: [(Int, Player)], into w: inout JSONWriter) {
        var seen = Set<Int>()
        let distinct = picks.filter { seen.insert($0.0).inserted }.sorted { $0.0 < $1.0 }
        w.beginArray()
        for (index, player) in distinct {
            w.beginObject(); w.field("index", index); writePlayerFields(player, into: &w); w.endObject()
        }
        w.endArray()
    }

    static func writePicks(_ indices: [Int], into w: inout JSONWriter) {
        w.beginArray()
        for i in indices { w.int(i) }
        w.endArray()
    }
}

extension WireMessages {
    /// `"reveal":"each"` for a draw that reveals each winner with its own flips, and `redrawOf`
    /// for a redraw (docs/FAIRNESS.md §5a, §5b); neither for any other draw, whose messages and
    /// records keep the bytes they always had.
    static func writeRevealAndRedraw(revealsEachWinner: Bool, redrawOf: RedrawLink?, into w: inout JSONWriter) {
        if revealsEachWinner { w.field("reveal", "each") }
        guard let link = redrawOf else { return }
        w.key("redrawOf"); w.beginObject()
        w.field("drawId", link.drawId)
        w.key("removed"); writePlayer(link.removed, into: &w)
        w.key("kept"); writePlayers(link.kept, into: &w)
        if let number = link.number { w.field("number", number) }
        w.endObject()
    }

    /// A winner slot as `winner` messages and snapshots show it: `{"winner":s,"index":…,<player>}`.
    static func writeSlot(_ pick: WinnerPick, into w: inout JSONWriter) {
        w.beginObject()
        w.field("winner", pick.slot)
        w.field("index", pick.pickIndex)
        writePlayerFields(pick.player, into: &w)
        w.endObject()
    }
}
