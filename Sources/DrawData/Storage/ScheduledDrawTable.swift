import DrawCore

/// The draws waiting for their time (`ScheduledDrawStore`), in the `scheduled_draws` table
/// (schema 10, see `DrawStoreSchema`). Its lists are its own column, not `entrant_lists` rows.
struct ScheduledDrawTable: Sendable {
    let database: DrawDatabase

    func schedule(_ draw: ScheduledDraw) throws(StorageError) -> Bool {
        try database.write("schedule draw \(draw.drawId) in room \(draw.room)") { db in
            // DO NOTHING: a room that has a scheduled draw already is an answer, not a failure.
            try db.run("""
                INSERT INTO scheduled_draws (draw_id, room, at, created_at, seed_hex, entrants_json, warnings_json,
                                             schedule_json, winners, reveal, users_url, lottery_url, beacon_json)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, [
                    .text(draw.drawId), .text(draw.room), .real(draw.at), .real(draw.createdAt), .text(draw.seed.hex),
                    .text(StoredJSON.entrants(draw.entrants)), .text(StoredJSON.warnings(draw.warnings)),
                    .text(StoredJSON.schedule(draw.schedule)), .int(draw.winners), .text(draw.reveal.rawValue),
                    .text(draw.sources.usersURL), .text(draw.sources.lotteryURL),
                    draw.beacon.map { .text(StoredJSON.beacon($0)) } ?? .null,
                ])
            return db.changes == 1
        }
    }

    func scheduledDraws() throws(StorageError) -> [ScheduledDraw] {
        try database.read("read the scheduled draws") { db in
            let query = try db.prepare("SELECT \(Self.scheduledColumns) FROM scheduled_draws ORDER BY at")
            var draws: [ScheduledDraw] = []
            while try query.step() { draws.append(try Self.scheduled(from: query)) }
            return draws
        }
    }

    func scheduledDraw(id drawId: String) throws(StorageError) -> ScheduledDraw? {
        try database.read("read scheduled draw \(drawId)") { db in
            let query = try db.prepare("SELECT \(Self.scheduledColumns) FROM scheduled_draws WHERE draw_id = ?")
            try query.bind([.text(drawId)])
            return try query.step() ? try Self.scheduled(from: query) : nil
        }
    }

    func claim(drawId: String) throws(StorageError) -> ScheduledDraw? {
        try database.write("claim scheduled draw \(drawId)") { db in
            let query = try db.prepare("SELECT \(Self.scheduledColumns) FROM scheduled_draws WHERE draw_id = ?")
            try query.bind([.text(drawId)])
            guard try query.step() else { return nil }
            let draw = try Self.scheduled(from: query)
            try db.run("DELETE FROM scheduled_draws WHERE draw_id = ?", [.text(drawId)])
            return draw
        }
    }

    private static let scheduledColumns = """
        draw_id, room, at, created_at, seed_hex, entrants_json, warnings_json, schedule_json, winners, reveal,
        users_url, lottery_url, beacon_json
        """

    private static func scheduled(from row: SQLiteStatement) throws -> ScheduledDraw {
        try StoredJSON.scheduled(drawId: row.text(0) ?? "", room: row.text(1) ?? "", at: row.double(2) ?? .nan,
                                 createdAt: row.double(3) ?? .nan, seedHex: row.text(4), entrantsJSON: row.text(5) ?? "",
                                 warningsJSON: row.text(6) ?? "", scheduleJSON: row.text(7) ?? "", winners: row.int(8),
                                 reveal: row.text(9),
                                 sources: DrawSources(usersURL: row.text(10) ?? "", lotteryURL: row.text(11) ?? ""),
                                 beaconJSON: row.text(12))
    }
}
