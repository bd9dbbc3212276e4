import DrawCore

/// Cluster mode's archive of ended draws (`DrawArchive`, issue 44) in `archived_draws` (schema 12,
/// see `DrawStoreSchema`): each draw's history line and record as the shared store kept them, its
/// entrant list in `entrant_lists` once per list (as the node's own draws keep theirs), and in
/// `archive_cursor` how far the ends stream has been read. Rows are never deleted: the archive is
/// what a node serves once Redis let a draw go.
struct ArchiveTable: Sendable {
    let database: DrawDatabase

    func archive(_ draws: [ArchivedDraw], cursor: String) throws(StorageError) {
        try database.write("archive \(draws.count) ended draw(s) of the cluster") { db in
            for draw in draws {
                if let list = draw.body.entrants { try EntrantListTable.keep(list.json, hash: list.hash, in: db) }
                try db.run("""
                    INSERT INTO archived_draws (draw_id, room, position, summary, head, tail, entrants_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (draw_id) DO NOTHING
                    """, [.text(draw.drawId), .text(draw.room), .integer(draw.position),
                          .text(String(decoding: draw.summary, as: UTF8.self)),
                          .text(String(decoding: draw.body.head, as: UTF8.self)),
                          .text(String(decoding: draw.body.tail, as: UTF8.self)), .string(draw.body.entrants?.hash)])
            }
            try db.run("""
                INSERT INTO archive_cursor (id, cursor) VALUES (1, ?)
                ON CONFLICT (id) DO UPDATE SET cursor = excluded.cursor
                """, [.text(cursor)])
        }
    }

    func cursor() throws(StorageError) -> String? {
        try database.read("read the archive's cursor") { db in
            let query = try db.prepare("SELECT cursor FROM archive_cursor WHERE id = 1")
            return try query.step() ? query.text(0) : nil
        }
    }

    func body(drawId: String) throws(StorageError) -> [UInt8]? {
        try database.read("read an archived draw") { db in
            let query = try db.prepare("""
                SELECT head, tail, entrants_hash, \(EntrantListTable.json(hashColumn: "entrants_hash"))
                FROM archived_draws WHERE draw_id = ?
                """)
            try query.bind([.text(drawId)])
            guard try query.step() else { return nil }
            let list = query.text(2).map { SharedEntrantList(hash: $0, json: Array((query.text(3) ?? "").utf8)) }
            return SharedRecordBody(head: Array((query.text(0) ?? "").utf8), tail: Array((query.text(1) ?? "").utf8),
                                    entrants: list).whole
        }
    }

    func entrants(drawId: String) throws(StorageError) -> SharedEntrantList? {
        try database.read("read an archived draw's entrants") { db in
            let query = try db.prepare("""
                SELECT entrants_hash, \(EntrantListTable.json(hashColumn: "entrants_hash"))
                FROM archived_draws WHERE draw_id = ? AND entrants_hash IS NOT NULL
                """)
            try query.bind([.text(drawId)])
            guard try query.step(), let hash = query.text(0), let json = query.text(1) else { return nil }
            return SharedEntrantList(hash: hash, json: Array(json.utf8))
        }
    }

    func lines(room: String, before: Int64?, limit: Int) throws(StorageError) -> [(position: Int64, summary: [UInt8])] {
        try database.read("read archived history lines") { db in
            let query = try db.prepare("""
                SELECT position, summary FROM archived_draws
                WHERE room = ? AND position < ? ORDER BY position DESC LIMIT ?
                """)
            try query.bind([.text(room), .integer(before ?? Int64.max), .int(max(0, limit))])
            var lines: [(position: Int64, summary: [UInt8])] = []
            while try query.step() { lines.append((query.int64(0), Array((query.text(1) ?? "").utf8))) }
            return lines
        }
    }
}
