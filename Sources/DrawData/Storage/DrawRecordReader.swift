import DrawCore

/// The reads of the draw records (`DrawRecordStore`'s reads): a room's history a page at a time,
/// newest first, and one draw's whole record. Each is one read of `database`; a page's lines
/// never decode whole entrant lists, a record reads its list from `EntrantListTable`.
struct DrawRecordReader: Sendable {
    let database: DrawDatabase

    func list(room: String, page: DrawPageRequest) throws(StorageError) -> DrawPage {
        try database.read("list the draws of room \(room)") { db in
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

    func record(id: String) throws(StorageError) -> DrawRecord? {
        try database.read("read draw \(id)") { db in
            // A file still at an older schema (tests open one on purpose) has no schema 8 columns.
            let schema = try db.scalarInt("PRAGMA user_version")
            let columns = RecordColumn.allCases.map { $0.sql(schema: schema) }.joined(separator: ", ")
            let query = try db.prepare("SELECT \(columns) FROM draws WHERE draw_id = ?")
            try query.bind([.text(id)])
            guard try query.step() else { return nil }
            return try Self.record(from: query, in: db)
        }
    }

    /// The players of a multi-winner draw's slots, for its history line. Only those entries are
    /// taken from the stored list (`EntrantListTable.entries`), so a page of lines never decodes
    /// whole lists (up to 100,000 entrants each) in Swift.
    private static func winnerPicks(_ indicesJSON: String, listHash: String, of drawId: String,
                                    in db: SQLiteConnection) throws -> [WinnerPick] {
        let indices = try decoding(drawId) { try StoredJSON.indices(from: indicesJSON) }
        // `winner_picks_json` is written only for k > 1, so there are always two entries or more
        // (`entries` needs two to answer an array).
        guard indices.count > 1 else { return [] }
        guard let found = try EntrantListTable.entries(indices, ofList: listHash, in: db) else {
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
}
