import DrawCore

/// The columns the reads select, one enum per query, so each column's index is named once.
extension DrawRecordReader {
    /// The columns `list` reads, in SELECT order (the raw value is the column index).
    enum SummaryColumn: Int32, CaseIterable {
        case seq, drawId, room, status, createdAt, startedAt, finishedAt, entrantCount, commitment, drawn,
             failureCode, roundsShown, winners, winnerPicks, entrantsHash, redraw

        var sql: String {
            switch self {
            case .seq: return "d.seq"
            case .drawId: return "d.draw_id"
            case .room: return "d.room"
            case .status: return "d.status"
            case .createdAt: return "d.created_at"
            case .startedAt: return "d.started_at"
            case .finishedAt: return "d.finished_at"
            case .entrantCount: return "d.entrant_count"
            case .commitment: return "d.commitment"
            case .drawn: return "d.drawn_json"
            case .failureCode: return "d.failure_code"
            case .roundsShown:
                return "(SELECT count(*) FROM rounds r WHERE r.draw_seq = d.seq AND r.sent_at IS NOT NULL)"
            case .winners: return "d.winners"
            case .winnerPicks: return "d.winner_picks_json"
            case .entrantsHash: return "d.entrants_hash"
            case .redraw: return "d.redraw_json"
            }
        }
    }

    /// The columns `record(id:)` reads, in SELECT order (the raw value is the column index).
    enum RecordColumn: Int32, CaseIterable {
        case seq, drawId, room, status, createdAt, startedAt, finishedAt, usersURL, lotteryURL, entrants,
             warnings, commitment, entrantsHash, schedule, seed, drawn, abortReason, failureCode, failureMessage,
             winners, winnerPicks, revealEach, redraw, beacon

        /// The column's SQL in a file at `schema`: before schema 8 the reveal and redraw columns read
        /// as the values every draw had then (together, no redraw).
        func sql(schema: Int) -> String {
            if self == .beacon, schema < 9 { return "NULL" }
            guard schema < 8 else { return sql }
            switch self {
            case .revealEach: return "0"
            case .redraw: return "NULL"
            default: return sql
            }
        }

        var sql: String {
            switch self {
            case .seq: return "seq"
            case .drawId: return "draw_id"
            case .room: return "room"
            case .status: return "status"
            case .createdAt: return "created_at"
            case .startedAt: return "started_at"
            case .finishedAt: return "finished_at"
            case .usersURL: return "users_url"
            case .lotteryURL: return "lottery_url"
            case .entrants: return EntrantListTable.json(hashColumn: "draws.entrants_hash")
            case .warnings: return "warnings_json"
            case .commitment: return "commitment"
            case .entrantsHash: return "entrants_hash"
            case .schedule: return "schedule_json"
            // Defence in depth under DrawRecord's own rule: a running draw's seed never leaves SQL.
            case .seed: return "CASE WHEN status = 'running' THEN NULL ELSE seed_hex END"
            case .drawn: return "drawn_json"
            case .abortReason: return "abort_reason"
            case .failureCode: return "failure_code"
            case .failureMessage: return "failure_message"
            case .winners: return "winners"
            case .winnerPicks: return "winner_picks_json"
            case .revealEach: return "reveal_each"
            case .redraw: return "redraw_json"
            case .beacon: return "beacon_json"
            }
        }
    }
}
