import DrawCore

/// The table of entrant lists stored once each (schema 6, issue 31), `entrant_lists`, keyed by
/// the SHA-256 (lowercase hex) of the list's bytes, the canonical encoding (`EntrantsEncoding`).
/// Its own type, apart from `SQLiteDrawStore`: the draws and the rooms both reference it, and
/// its rules (one row per hash, never two lists under one) are kept here only. Every function
/// runs inside the caller's transaction on the store's connection.
///
/// A draw references its list by `entrants_hash`, the hash its `started` message committed to,
/// which is the SHA-256 of exactly the bytes stored (`DrawPlan.make` hashes
/// `EntrantsEncoding.canonicalJSON(entrants)`, and `CanonicalEntrantList` stores those same
/// bytes). A room's own list references one by `room_entrants.entrants_sha256`. A draw of an
/// unchanged list therefore adds only its row and its rounds.
enum EntrantListTable {
    /// Two different lists under one hash: refused, never merged, since either draw would then
    /// read back the other's entrants. Reaching it means a SHA-256 collision or a caller whose
    /// hash does not name its list; both are bugs to see, not to work around.
    struct Conflict: Error, CustomStringConvertible {
        let hash: String
        let detail: String
        var description: String { "entrant list \(hash): \(detail); refused" }
    }

    /// Makes sure `entrant_lists` holds `json` (the list's canonical bytes) under `hash`, inside
    /// the caller's write transaction.
    ///
    /// An existing row must hold the same bytes (compared by SQLite, without decoding them);
    /// otherwise `Conflict`. The hash is the caller's: a draw's `entrantsHash`
    /// (`DrawPlan`'s only initialiser computes it from the entrants it stores), a room list's
    /// `EntrantsEncoding.hash`, or, in the migration, the hash each record committed to.
    ///
    /// The bytes are bound in place, not copied (`SQLiteStatement.withText`), and each statement
    /// is done before the next binds them: with 100,000 entrants they are about 10 MB, which
    /// SQLite otherwise copied once per statement on top of the String they were made into.
    static func keep(_ json: [UInt8], hash: String, in db: SQLiteConnection) throws {
        let kept = try db.prepare("SELECT json = ?2 FROM entrant_lists WHERE sha256 = ?1")
        try kept.bind([.text(hash)])
        let same: Bool? = try kept.withText(json, at: 2) { () throws(SQLiteFailure) in
            try kept.step() ? kept.int(0) == 1 : nil
        }
        if let same {
            guard same else { throw Conflict(hash: hash, detail: "already stored with different bytes") }
            return
        }
        let insert = try db.prepare("INSERT INTO entrant_lists (sha256, json) VALUES (?1, ?2)")
        try insert.bind([.text(hash)])
        try insert.withText(json, at: 2) { () throws(SQLiteFailure) in try insert.run() }
    }

    /// The SQL expression for a list's bytes by its hash, for a SELECT's column list.
    static func json(hashColumn: String) -> String {
        "(SELECT json FROM entrant_lists WHERE sha256 = \(hashColumn))"
    }

    /// The entries at `indices` of the list stored under `hash`, as the JSON array text of
    /// those entries in that order; `nil` when no list has that hash. `json_extract` with one
    /// path per index parses the list once in SQL and returns just them. Two indices or more:
    /// with one path json_extract answers the bare entry, not an array.
    static func entries(_ indices: [Int], ofList hash: String, in db: SQLiteConnection) throws -> String? {
        let paths = indices.map { "$[\($0)]" }
        let query = try db.prepare("""
            SELECT json_extract(json, \(paths.map { _ in "?" }.joined(separator: ", ")))
            FROM entrant_lists WHERE sha256 = ?
            """)
        try query.bind(paths.map { .text($0) } + [.text(hash)])
        guard try query.step() else { return nil }
        return query.text(0)
    }

    // MARK: Schema 6 migration

    /// Moves every draw's and room's own copy of its list into `entrant_lists`, one row per
    /// distinct list. Runs inside the migration's transaction, between its two SQL halves.
    ///
    /// Draws: the bytes are kept exactly (reads must return them as before), under the draw's
    /// `entrants_hash`; two draws with one hash and different bytes stop the migration
    /// (`Conflict`), leaving the file at version 5. A draw without a hash is one that
    /// failed before planning, whose stored list is `[]`: it references nothing and reads `[]`.
    /// Rooms: their lists were never hashed, and are only ever read back as players, so each is
    /// decoded and re-encoded canonically, which gives its hash (and shares it with the draws
    /// of the same list).
    /// - Returns: whether anything moved.
    static func moveLists(_ db: SQLiteConnection) throws -> Bool {
        var moved = false
        // Ids first, then one list at a time: never the whole history in memory, and no
        // UPDATE of `draws` while a SELECT over it is still stepping.
        var draws: [(seq: Int64, id: String, hash: String?)] = []
        let all = try db.prepare("SELECT seq, draw_id, entrants_hash FROM draws ORDER BY seq")
        while try all.step() { draws.append((all.int64(0), all.text(1) ?? "", all.text(2))) }
        let read = try db.prepare("SELECT entrants_json FROM draws WHERE seq = ?")
        for draw in draws {
            read.reset()
            try read.bind([.integer(draw.seq)])
            guard try read.step(), let json = read.text(0) else { continue }
            guard let hash = draw.hash else {
                guard json == "[]" else {
                    throw StoredJSON.Invalid(description: "draw \(draw.id) has entrants but no entrants hash")
                }
                continue
            }
            // The row is shared by every later draw of the same list, which stores the canonical
            // bytes its hash commits to: a record written otherwise (no release did) is kept in
            // that form, or the next draw of its list would be refused as a conflict.
            let players = try StoredJSON.entrants(from: json)
            guard EntrantsEncoding.hash(players) == hash else {
                throw StoredJSON.Invalid(description: "draw \(draw.id)'s entrants do not match its entrants hash; refused")
            }
            do {
                try keep(CanonicalEntrantList.bytes(players), hash: hash, in: db)
            } catch is Conflict {
                throw Conflict(hash: hash, detail: "draw \(draw.id) stored different bytes "
                                          + "than an earlier draw with the same entrants hash")
            }
            moved = true
        }
        var rooms: [String] = []
        let names = try db.prepare("SELECT room FROM room_entrants")
        while try names.step() { rooms.append(names.text(0) ?? "") }
        let list = try db.prepare("SELECT entrants_json FROM room_entrants WHERE room = ?")
        for room in rooms {
            list.reset()
            try list.bind([.text(room)])
            guard try list.step() else { continue }
            let players = try StoredJSON.entrants(from: list.text(0) ?? "")
            let hash = EntrantsEncoding.hash(players)
            try keep(CanonicalEntrantList.bytes(players), hash: hash, in: db)
            try db.run("UPDATE room_entrants SET entrants_sha256 = ? WHERE room = ?", [.text(hash), .text(room)])
            moved = true
        }
        return moved
    }
}
