import DrawCore

/// The pieces several messages share (plan header, rounds, players, results), so each field is
/// written by exactly one function.
extension WireMessages {
    static func writePlayer(_ p: Player, into w: inout JSONWriter) {
        w.beginObject()
        w.field("userId", p.userId)
        w.field("name", p.name)
        w.field("username", p.username)
        w.field("regDate", p.regDate.description)
        w.field("void", p.isVoid)
        w.endObject()
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
        w.key("offsetsMs"); w.beginArray(); for o in s.roundOffsetsMs { w.int(o) }; w.endArray()
        w.field("finishOffsetMs", s.finishOffsetMs)
        w.endObject()
    }

    /// drawId, entrants, warnings, commitment, entrantsHash, schedule, startedAt.
    static func writePlanHeader(_ plan: DrawPlan, startedAt: Double, into w: inout JSONWriter) {
        w.field("drawId", plan.drawId)
        w.key("entrants"); w.beginArray(); for p in plan.entrants { writePlayer(p, into: &w) }; w.endArray()
        w.key("warnings"); writeWarnings(plan.warnings, into: &w)
        w.field("commitment", plan.commitment)
        w.field("entrantsHash", plan.entrantsHash)
        w.key("schedule"); writeSchedule(plan.schedule, into: &w)
        w.field("startedAt", millis: startedAt)
    }

    /// round, of, index, userId, name, username, sentAt.
    static func writeRoundBody(_ r: PlannedRound, of total: Int, sentAt: Double, into w: inout JSONWriter) {
        w.field("round", r.round)
        w.field("of", total)
        w.field("index", r.pickIndex)
        w.field("userId", r.player.userId)
        w.field("name", r.player.name)
        w.field("username", r.player.username)
        w.field("sentAt", millis: sentAt)
    }

    static func writeFinishedBody(_ f: FinishedDraw, into w: inout JSONWriter) {
        let plan = f.plan
        w.field("drawId", plan.drawId)
        switch plan.outcome {
        case .winner(let p):
            w.field("outcome", "winner")
            w.key("drawn"); writePlayer(p, into: &w)
            w.key("winner"); writePlayer(p, into: &w)
        case .noWinner(let p):
            w.field("outcome", "void")
            w.key("drawn"); writePlayer(p, into: &w)
            w.key("winner"); w.null()
        }
        w.field("seed", plan.seed.hex)
        w.field("commitment", plan.commitment)
        w.field("entrantsHash", plan.entrantsHash)
        w.key("entrants"); w.beginArray(); for p in plan.entrants { writePlayer(p, into: &w) }; w.endArray()
        w.key("picks"); w.beginArray(); for r in plan.rounds { w.int(r.pickIndex) }; w.endArray()
        w.field("rounds", plan.rounds.count)
        w.field("startedAt", millis: f.startedAt)
        w.field("finishedAt", millis: f.finishedAt)
    }
}
