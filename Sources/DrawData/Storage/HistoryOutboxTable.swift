import DrawCore

/// Cluster mode's history outbox (`HistoryOutboxStore`) in the `history_outbox` table (schema 7,
/// see `DrawStoreSchema`): the same file, connection and lock as the draws, so the rows a restart
/// owes are written in the same transaction as the records it reconciles.
struct HistoryOutboxTable: Sendable {
    let database: DrawDatabase

    func owe(_ line: OwedHistoryLine) throws(StorageError) {
        try database.write("owe the history line of draw \(line.drawId)") { db in try Self.owe(line, in: db) }
    }

    func owed(limit: Int) throws(StorageError) -> [OwedHistoryLine] {
        try database.read("read the history outbox") { db in
            let query = try db.prepare("""
                SELECT draw_id, room, token, final, seed_hex, rounds_shown, ended_at
                FROM history_outbox ORDER BY rowid LIMIT ?
                """)
            try query.bind([.int(limit)])
            var lines: [OwedHistoryLine] = []
            while try query.step() {
                let takeover = query.text(4).map {
                    OwedHistoryLine.TakeoverEnd(seedHex: $0, roundsShown: query.int(5), endedAt: query.double(6) ?? 0)
                }
                lines.append(OwedHistoryLine(drawId: query.text(0) ?? "", room: query.text(1) ?? "",
                                             token: UInt64(max(0, query.int64(2))), final: query.int(3) == 1,
                                             takeover: takeover))
            }
            return lines
        }
    }

    func settle(drawId: String) throws(StorageError) {
        try database.write("settle the history line of draw \(drawId)") { db in
            try db.run("DELETE FROM history_outbox WHERE draw_id = ?", [.text(drawId)])
        }
    }

    @discardableResult
    func markRunningInterruptedOwingLines(at: Double) throws(StorageError) -> Int {
        try database.write("mark running draws interrupted and owe their history lines") { db in
            // Token 0: reconciled without a lease; a takeover that recorded its end first wins.
            try db.run("""
                INSERT INTO history_outbox (draw_id, room, token, final)
                SELECT draw_id, room, 0, 1 FROM draws WHERE status = 'running' ORDER BY seq
                ON CONFLICT (draw_id) DO UPDATE SET final = 1
                """)
            return try DrawRecordWriter.interruptRunning(at: at, in: db)
        }
    }

    func newestDraws(limit: Int, since: Double) throws(StorageError) -> [(drawId: String, room: String)] {
        try database.read("read the newest draws") { db in
            let query = try db.prepare("""
                SELECT draw_id, room FROM draws WHERE coalesce(finished_at, started_at, created_at) >= ?
                ORDER BY seq DESC LIMIT ?
                """)
            try query.bind([.real(since), .int(limit)])
            var draws: [(drawId: String, room: String)] = []
            while try query.step() { draws.append((query.text(0) ?? "", query.text(1) ?? "")) }
            return draws
        }
    }

    /// One row per draw: owed again before it was sent, it keeps its place and merges as
    /// `OwedHistoryLine.merged` does (an end stays an end, the newer token wins).
    private static func owe(_ line: OwedHistoryLine, in db: SQLiteConnection) throws {
        // SQLite integers are signed: a token past Int64.max (never handed out: Redis' INCR is
        // signed 64-bit too) is refused by the CHECK rather than stored negative.
        let token: SQLiteValue = line.token > UInt64(Int64.max) ? .integer(-1) : .integer(Int64(line.token))
        try db.run("""
            INSERT INTO history_outbox (draw_id, room, token, final, seed_hex, rounds_shown, ended_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (draw_id) DO UPDATE SET token = max(token, excluded.token), final = max(final, excluded.final),
                seed_hex = coalesce(excluded.seed_hex, seed_hex),
                rounds_shown = coalesce(excluded.rounds_shown, rounds_shown),
                ended_at = coalesce(excluded.ended_at, ended_at)
            """, [.text(line.drawId), .text(line.room), token, .int(line.final ? 1 : 0),
                  .string(line.takeover?.seedHex), .int(line.takeover?.roundsShown), line.takeover.map { .real($0.endedAt) } ?? .null])
    }
}
