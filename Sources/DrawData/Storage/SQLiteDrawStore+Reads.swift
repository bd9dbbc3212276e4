import DrawCore

extension SQLiteDrawStore {
    public func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage {
        try read("list the draws of room \(room)") { db in
            let columns = SummaryColumn.allCases.map(\.sql).joined(separator: ", ")
            // One row more than asked tells whether another page follows.
            let query = try db.prepare("""
                SELECT \(columns) FROM draws d
                WHERE d.room = ? AND d.seq < ? ORDER BY d.seq DESC LIMIT ?
                """)
            try query.bind([.text(room), .integer(page.after?.position ?? Int64.max), .int(page.limit + 1)])
            var rows: [(seq: Int64, summary: DrawSummary)] = []
            var slots: [(row: Int, picks: String, hash: String)] = []
            while try query.step() {
                if query.text(SummaryColumn.status.rawValue) == DrawStatus.finished.rawValue,
                   let picks = query.text(SummaryColumn.winnerPicks.rawValue),
                   let hash = query.text(SummaryColumn.entrantsHash.rawValue) {
                    slots.append((rows.count, picks, hash))
                }
                rows.append((query.int64(SummaryColumn.seq.rawValue), try Self.summary(from: query)))
            }
            for slot in slots where slot.row < page.limit {
                let summary = rows[slot.row].summary
                let picks = try Self.winnerPicks(slot.picks, listHash: slot.hash, of: summary.drawId, in: db)
                rows[slot.row].summary = summary.with(winnerPicks: picks)
            }
            let more = rows.count > page.limit
            let shown = rows.prefix(page.limit)
            return DrawPage(draws: shown.map(\.summary),
                            next: more ? shown.last.flatMap { DrawCursor(position: $0.seq) } : nil)
        }
    }

    public func record(id: String) throws(StorageError) -> DrawRecord? {
        try read("read draw \(id)") { db in
            // A file still at an older schema (tests open one on purpose) has no schema 8 columns.
            let schema = try db.scalarInt("PRAGMA user_version")
            let columns = RecordColumn.allCases.map { $0.sql(schema: schema) }.joined(separator: ", ")
            let query = try db.prepare("SELECT \(columns) FROM draws WHERE draw_id = ?")
            try query.bind([.text(id)])
            guard try query.step() else { return nil }
            return try Self.record(from: query, in: db)
        }
    }

    // MARK: Row decoding

    private static func summary(from row: SQLiteStatement) throws -> DrawSummary {
        typealias C = SummaryColumn
        let drawId = row.text(C.drawId.rawValue) ?? ""
        return try decoding(drawId) {
            DrawSummary(drawId: drawId, room: row.text(C.room.rawValue) ?? "",
                        status: try status(row.text(C.status.rawValue)),
                        createdAt: row.double(C.createdAt.rawValue) ?? 0,
                        startedAt: row.double(C.startedAt.rawValue), finishedAt: row.double(C.finishedAt.rawValue),
                        entrantCount: row.int(C.entrantCount.rawValue), roundsShown: row.int(C.roundsShown.rawValue),
                        commitment: row.text(C.commitment.rawValue),
                        plannedDrawn: try row.text(C.drawn.rawValue).map(StoredJSON.player(from:)),
                        failureCode: row.text(C.failureCode.rawValue), winners: row.int(C.winners.rawValue))
        }
    }

    /// The players of a multi-winner draw's slots, for its history line. Only those entries are
    /// taken from the stored list, in SQL: `json_extract` with one path per slot parses the list
    /// once and returns just them, so a page of lines never decodes whole lists (up to 100,000
    /// entrants each) in Swift.
    private static func winnerPicks(_ indicesJSON: String, listHash: String, of drawId: String,
                                    in db: SQLiteConnection) throws -> [WinnerPick] {
        let indices = try decoding(drawId) { try StoredJSON.indices(from: indicesJSON) }
        // `winner_picks_json` is written only for k > 1, so there are always two paths or more
        // and json_extract answers an array (one path would answer the bare value).
        guard indices.count > 1 else { return [] }
        let paths = indices.map { "$[\($0)]" }
        let query = try db.prepare("""
            SELECT json_extract(json, \(paths.map { _ in "?" }.joined(separator: ", ")))
            FROM entrant_lists WHERE sha256 = ?
            """)
        try query.bind(paths.map { .text($0) } + [.text(listHash)])
        guard try query.step(), let found = query.text(0) else {
            throw StoredJSON.Invalid(description: "draw \(drawId): its entrant list \(listHash) is missing")
        }
        let players = try decoding(drawId) { try StoredJSON.entrants(from: found) }
        guard players.count == indices.count else {
            throw StoredJSON.Invalid(description: "draw \(drawId): a winner slot picks an entrant its list does not have")
        }
        return zip(indices, players).enumerated().map {
            WinnerPick(slot: $0.offset + 1, pickIndex: $0.element.0, player: $0.element.1)
        }
    }

    private static func record(from row: SQLiteStatement, in db: SQLiteConnection) throws -> DrawRecord {
        typealias C = RecordColumn
        let drawId = row.text(C.drawId.rawValue) ?? ""
        let entrants = try decoding(drawId) { try Self.entrants(from: row) }
        let eachWinner = row.int(C.revealEach.rawValue) == 1
        let schedule = try decoding(drawId) { try row.text(C.schedule.rawValue).map(StoredJSON.schedule(from:)) }
        let rounds = try Self.rounds(ofSeq: row.int64(C.seq.rawValue), drawId: drawId, entrants: entrants,
                                     perWinner: eachWinner ? schedule?.rounds : nil, in: db)
        return try decoding(drawId) {
            let failure = row.text(C.failureCode.rawValue).map {
                DrawFailure(code: $0, message: row.text(C.failureMessage.rawValue) ?? "")
            }
            let seed = try row.text(C.seed.rawValue).map { (hex: String) throws(StoredJSON.Invalid) in
                guard let seed = Seed(hex: hex) else { throw StoredJSON.Invalid(description: "stored seed is not 64 hex") }
                return seed
            }
            return DrawRecord(
                drawId: drawId, room: row.text(C.room.rawValue) ?? "",
                status: try status(row.text(C.status.rawValue)),
                createdAt: row.double(C.createdAt.rawValue) ?? 0,
                startedAt: row.double(C.startedAt.rawValue), finishedAt: row.double(C.finishedAt.rawValue),
                sources: DrawSources(usersURL: row.text(C.usersURL.rawValue) ?? "",
                                     lotteryURL: row.text(C.lotteryURL.rawValue) ?? ""),
                entrants: entrants,
                warnings: try StoredJSON.warnings(from: row.text(C.warnings.rawValue) ?? ""),
                commitment: row.text(C.commitment.rawValue), entrantsHash: row.text(C.entrantsHash.rawValue),
                schedule: schedule,
                plannedRounds: rounds,
                plannedDrawn: try row.text(C.drawn.rawValue).map(StoredJSON.player(from:)),
                storedSeed: seed, failure: failure, abortReason: row.text(C.abortReason.rawValue),
                winners: row.int(C.winners.rawValue),
                plannedWinnerPicks: try row.text(C.winnerPicks.rawValue).map {
                    try StoredJSON.winnerPicks(from: $0, entrants: entrants)
                },
                revealsEachWinner: eachWinner,
                redrawOf: try row.text(C.redraw.rawValue).map(StoredJSON.redraw(from:)),
                beacon: try row.text(C.beacon.rawValue).map(StoredJSON.beacon(from:)))
        }
    }

    /// The record's list, shared in `entrant_lists` (schema 6). No hash: a draw that failed
    /// before planning, which never had a list (stored as `[]` up to schema 5).
    private static func entrants(from row: SQLiteStatement) throws(StoredJSON.Invalid) -> [Player] {
        guard let hash = row.text(RecordColumn.entrantsHash.rawValue) else { return [] }
        guard let json = row.text(RecordColumn.entrants.rawValue) else {
            throw StoredJSON.Invalid(description: "its entrant list \(hash) is missing")
        }
        return try StoredJSON.entrants(from: json)
    }

    /// With `perWinner` (a draw revealing each winner) each row's winner and flip follow from its
    /// number (`WinnerReveal.slotAndFlip`).
    private static func rounds(ofSeq seq: Int64, drawId: String, entrants: [Player], perWinner: Int?,
                               in db: SQLiteConnection) throws -> [RecordedRound] {
        let query = try db.prepare(
            "SELECT round, offset_ms, pick_index, sent_at FROM rounds WHERE draw_seq = ? ORDER BY round")
        try query.bind([.integer(seq)])
        var rounds: [RecordedRound] = []
        while try query.step() {
            let index = query.int(2)
            guard entrants.indices.contains(index) else {
                throw StoredJSON.Invalid(description: "draw \(drawId): round \(query.int(0)) picks entrant "
                                         + "\(index) of \(entrants.count)")
            }
            let round = query.int(0)
            let place = perWinner.map { WinnerReveal.slotAndFlip(round: round, perWinner: $0) } ?? (1, round)
            rounds.append(RecordedRound(round: round, offsetMs: query.int(1), pickIndex: index,
                                        player: entrants[index], sentAt: query.double(3),
                                        slot: place.0, flip: place.1))
        }
        return rounds
    }

    private static func status(_ text: String?) throws(StoredJSON.Invalid) -> DrawStatus {
        guard let text, let status = DrawStatus(rawValue: text) else {
            throw StoredJSON.Invalid(description: "unknown status \(text ?? "NULL")")
        }
        return status
    }

    /// Prefixes a decoding failure with the draw it concerns.
    private static func decoding<T>(_ drawId: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let invalid as StoredJSON.Invalid {
            throw StoredJSON.Invalid(description: "draw \(drawId): \(invalid.description)")
        }
    }
}

/// The columns `list` reads, in SELECT order (the raw value is the column index).
private enum SummaryColumn: Int32, CaseIterable {
    case seq, drawId, room, status, createdAt, startedAt, finishedAt, entrantCount, commitment, drawn,
         failureCode, roundsShown, winners, winnerPicks, entrantsHash

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
        }
    }
}

/// The columns `record(id:)` reads, in SELECT order (the raw value is the column index).
private enum RecordColumn: Int32, CaseIterable {
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
