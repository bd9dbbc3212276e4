import DrawCore

/// The rooms kept for good (`RoomStore`), in the draw database's `rooms` table (schema version 3,
/// see `DrawStoreSchema`) with each room's own list in `room_entrants` (`RoomTable+Entrants`).
/// Same connection, lock and transactions as the draw records: a room write made inside
/// `inOneTransaction` joins the group like any draw write.
struct RoomTable: Sendable {
    let database: DrawDatabase

    func createRoom(_ room: RoomRecord) throws(StorageError) {
        try database.write("create room \(room.name)") { db in
            // DO NOTHING rather than a constraint failure: a taken name is an answer, not an error
            // of the database, and must say which name.
            try db.run("""
                INSERT INTO rooms (name, host_key_sha256, created_at, last_activity_at, settings_json)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING
                """, [.text(room.name), .text(room.keyHash.hex), .real(room.createdAt),
                      .real(room.lastActivityAt), .text(StoredJSON.settings(room.settings))])
            guard db.changes == 1 else { throw StorageError.duplicateRoom(name: room.name) }
        }
    }

    func room(named name: String) throws(StorageError) -> RoomRecord? {
        try database.read("read room \(name)") { db in
            let query = try db.prepare("SELECT \(Self.roomColumns) FROM \(Self.roomTables) WHERE name = ?")
            try query.bind([.text(name)])
            return try query.step() ? try Self.room(from: query) : nil
        }
    }

    @discardableResult
    func touchRoom(named name: String, at: Double) throws(StorageError) -> Bool {
        try database.write("record activity in room \(name)") { db in
            // max(): activity only moves forward, whatever order the touches arrive in.
            try db.run("UPDATE rooms SET last_activity_at = max(last_activity_at, ?) WHERE name = ?",
                       [.real(at), .text(name)])
            return db.changes == 1
        }
    }

    @discardableResult
    func deleteRoom(named name: String) throws(StorageError) -> Bool {
        try database.write("delete room \(name)") { db in
            try db.run("DELETE FROM rooms WHERE name = ?", [.text(name)])
            return db.changes == 1
        }
    }

    @discardableResult
    func replaceKeyHash(ofRoom name: String, with keyHash: HostKeyHash, at: Double) throws(StorageError) -> Bool {
        try database.write("replace the host key of room \(name)") { db in
            try db.run("""
                UPDATE rooms SET host_key_sha256 = ?, last_activity_at = max(last_activity_at, ?) WHERE name = ?
                """, [.text(keyHash.hex), .real(at), .text(name)])
            return db.changes == 1
        }
    }

    func expireRooms(idleBefore cutoff: Double, limit: Int) throws(StorageError) -> [RoomRecord] {
        guard limit > 0 else { return [] }
        return try database.write("expire rooms idle since before \(cutoff)") { db in
            let query = try db.prepare("""
                SELECT \(Self.roomColumns) FROM \(Self.roomTables) WHERE last_activity_at < ?
                ORDER BY last_activity_at, name LIMIT ?
                """)
            try query.bind([.real(cutoff), .int(limit)])
            var expired: [RoomRecord] = []
            while try query.step() { expired.append(try Self.room(from: query)) }
            let delete = try db.prepare("DELETE FROM rooms WHERE name = ?")
            for room in expired {
                delete.reset()
                try delete.bind([.text(room.name)])
                try delete.run()
            }
            return expired
        }
    }

    func roomCount() throws(StorageError) -> Int {
        try database.read("count rooms") { db in try db.scalarInt("SELECT count(*) FROM rooms") }
    }

    // MARK: Row decoding

    /// A room with the summary of its own list, if any (the list itself stays on disk).
    private static let roomColumns = """
        name, host_key_sha256, created_at, last_activity_at, settings_json,
        e.summary_json, e.users_source, e.lottery_source, rooms.users_url, rooms.lottery_url
        """
    private static let roomTables = "rooms LEFT JOIN room_entrants e ON e.room = rooms.name"

    /// A row of `roomColumns`. A value the schema's CHECKs let through but Core cannot take (a
    /// hash that is not hex) means the file was edited: a read failure, not a room without a key.
    private static func room(from row: SQLiteStatement) throws -> RoomRecord {
        let name = row.text(0) ?? ""
        guard let hash = row.text(1).flatMap(HostKeyHash.init(hex:)) else {
            throw StoredJSON.Invalid(description: "room \(name) has no valid host key hash")
        }
        let entrants = try row.text(5).map { (summary: String) throws(StoredJSON.Invalid) in
            try StoredJSON.summary(from: summary, sources: DrawSources(usersURL: row.text(6) ?? "", lotteryURL: row.text(7) ?? ""))
        }
        var sourceURLs: DrawSources?
        if let users = row.text(8), let lottery = row.text(9) { sourceURLs = DrawSources(usersURL: users, lotteryURL: lottery) }
        return RoomRecord(name: name, keyHash: hash, createdAt: row.double(2) ?? 0,
                          lastActivityAt: row.double(3) ?? 0,
                          settings: try StoredJSON.settings(from: row.text(4) ?? ""), entrants: entrants,
                          sourceURLs: entrants == nil ? sourceURLs : nil)
    }
}
