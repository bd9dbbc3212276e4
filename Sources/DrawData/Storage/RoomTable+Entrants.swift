import DrawCore

/// A room's own entrant list and its settings (issue 15), in the `room_entrants` table and the
/// `rooms.settings_json` column (schema version 4, see `DrawStoreSchema`).
extension RoomTable {
    @discardableResult
    func replaceEntrants(ofRoom name: String, with entrants: RoomEntrants?, at: Double) throws(StorageError) -> Bool {
        try database.write("replace the entrants of room \(name)") { db in
            // One transaction (`write`): the old list goes only if the new one is stored.
            guard try Self.touch(name, at: at, in: db) else { return false }
            try db.run("DELETE FROM room_entrants WHERE room = ?", [.text(name)])
            try db.run("UPDATE rooms SET users_url = NULL, lottery_url = NULL WHERE name = ?", [.text(name)])
            guard let entrants else { return true }
            // Shared with every draw of the same list (schema 6). The DELETE above let go of the
            // old list (the trigger drops it if nothing else holds it), so the hash is computed
            // here, once per upload, from exactly the bytes stored (encoded once: issue 31).
            let json = CanonicalEntrantList.bytes(entrants.players)
            let hash = SHA256Hex.of(json)
            try EntrantListTable.keep(json, hash: hash, in: db)
            try db.run("""
                INSERT INTO room_entrants (room, entrants_sha256, warnings_json, users_source, lottery_source, summary_json)
                VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(name), .text(hash), .text(StoredJSON.warnings(entrants.warnings)),
                      .text(entrants.sources.usersURL), .text(entrants.sources.lotteryURL),
                      .text(StoredJSON.summary(entrants.summary))])
            return true
        }
    }

    @discardableResult
    func replaceSourceURLs(ofRoom name: String, with urls: DrawSources, at: Double) throws(StorageError) -> Bool {
        try database.write("replace the list URLs of room \(name)") { db in
            guard try Self.touch(name, at: at, in: db) else { return false }
            try db.run("DELETE FROM room_entrants WHERE room = ?", [.text(name)])
            try db.run("UPDATE rooms SET users_url = ?, lottery_url = ? WHERE name = ?",
                       [.text(urls.usersURL), .text(urls.lotteryURL), .text(name)])
            return true
        }
    }

    func entrants(ofRoom name: String) throws(StorageError) -> RoomEntrants? {
        try database.read("read the entrants of room \(name)") { db in
            let query = try db.prepare("""
                SELECT \(EntrantListTable.json(hashColumn: "entrants_sha256")), warnings_json, users_source, lottery_source
                FROM room_entrants WHERE room = ?
                """)
            try query.bind([.text(name)])
            guard try query.step() else { return nil }
            let players = try StoredJSON.entrants(from: query.text(0) ?? "")
            guard !players.isEmpty else { throw StoredJSON.Invalid(description: "room \(name) has an empty list") }
            return RoomEntrants(players: players, warnings: try StoredJSON.warnings(from: query.text(1) ?? ""),
                                sources: DrawSources(usersURL: query.text(2) ?? "", lotteryURL: query.text(3) ?? ""))
        }
    }

    @discardableResult
    func replaceSettings(ofRoom name: String, with settings: RoomSettings, at: Double) throws(StorageError) -> Bool {
        try database.write("replace the settings of room \(name)") { db in
            guard try Self.touch(name, at: at, in: db) else { return false }
            try db.run("UPDATE rooms SET settings_json = ? WHERE name = ?", [.text(StoredJSON.settings(settings)), .text(name)])
            return true
        }
    }

    /// Moves the room's activity forward to `at`; false when no such room is kept.
    private static func touch(_ name: String, at: Double, in db: SQLiteConnection) throws -> Bool {
        try db.run("UPDATE rooms SET last_activity_at = max(last_activity_at, ?) WHERE name = ?", [.real(at), .text(name)])
        return db.changes == 1
    }
}
