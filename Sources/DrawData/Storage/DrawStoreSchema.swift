import DrawCore

/// The draw store's schema and how a database file reaches it.
///
/// The version lives in SQLite's `PRAGMA user_version` (0 in a new file). `migrations` is
/// append-only: step N takes version N-1 to N, and a released step is never edited, because
/// databases in the field have already run it. Opening runs every pending step in ONE write
/// transaction, so a file is always at a version some release knew; a failure leaves it unchanged.
/// A file at a version above `currentVersion` was written by a newer live-draw and is refused:
/// this code cannot know what its columns mean.
///
/// Layout choices:
/// - `draws` has one row a draw. Entrants, warnings and the schedule are JSON text: they are
///   always written and read whole, never searched, and JSON keeps a record readable with the
///   `sqlite3` shell. The entrants are exactly the canonical encoding (`EntrantsEncoding`), so
///   their SHA-256 is the entrants hash and can be checked in place; up to schema 5 they were the
///   draw's own column `entrants_json`, since schema 6 a shared row of `entrant_lists` (below).
/// - `rounds` is a child table, not JSON: a round is stamped `sent_at` while the draw runs, and an
///   UPDATE of one small row is cheaper and clearer than rewriting an array. The pick is stored as
///   its index into the entrants, the same number the wire and FAIRNESS.md use.
/// - `seq` (AUTOINCREMENT, so never reused) orders the history and is the pagination cursor;
///   the caller's clock could jump back, the insertion order cannot.
/// - The seed is hex text; a CHECK keeps it present for every status but `failed`.
/// - Entrant lists (schema 6) are rows of `entrant_lists`, one per distinct list, keyed by the
///   SHA-256 of their bytes (a draw's `entrants_hash`): a draw and a room's own list reference
///   one, so a list drawn ten thousand times is stored once (`EntrantListTable`).
/// - The history outbox (schema 7, cluster mode) is a small table of its own, one row per draw
///   still owed to the shared history (`HistoryOutboxTable`).
enum DrawStoreSchema {
    static let migrations: [SchemaMigration] = [
        SchemaMigration(version: 1, sql: """
            CREATE TABLE draws (
                seq             INTEGER PRIMARY KEY AUTOINCREMENT,
                draw_id         TEXT    NOT NULL UNIQUE,
                room            TEXT    NOT NULL,
                status          TEXT    NOT NULL
                    CHECK (status IN ('running', 'finished', 'failed', 'aborted', 'interrupted')),
                created_at      REAL    NOT NULL,
                started_at      REAL,
                finished_at     REAL,
                users_url       TEXT    NOT NULL,
                lottery_url     TEXT    NOT NULL,
                entrants_json   TEXT    NOT NULL,
                entrant_count   INTEGER NOT NULL,
                warnings_json   TEXT    NOT NULL,
                commitment      TEXT,
                entrants_hash   TEXT,
                schedule_json   TEXT,
                seed_hex        TEXT,
                drawn_json      TEXT,
                abort_reason    TEXT,
                failure_code    TEXT,
                failure_message TEXT,
                CHECK ((status = 'failed') = (seed_hex IS NULL))
            );
            CREATE TABLE rounds (
                draw_seq   INTEGER NOT NULL REFERENCES draws (seq) ON DELETE CASCADE,
                round      INTEGER NOT NULL CHECK (round >= 1),
                offset_ms  INTEGER NOT NULL,
                pick_index INTEGER NOT NULL CHECK (pick_index >= 0),
                sent_at    REAL,
                PRIMARY KEY (draw_seq, round)
            ) WITHOUT ROWID;
            """),
        // The history API pages one room newest first (`room = ? AND seq < ? ORDER BY seq DESC`).
        // An index on `room` alone serves it: SQLite appends the rowid (`seq`) to every index entry,
        // so entries of one room are already in `seq` order and are read backwards.
        SchemaMigration(version: 2, sql: """
            CREATE INDEX draws_by_room ON draws (room);
            """),
        // Durable rooms (issue 13), in the same file as the draws so one connection, one lock and
        // one storage thread serve both. Keyed by name (WITHOUT ROWID: the name is the only way a
        // room is looked up). The host key's SHA-256, never the key. No foreign key to `draws`:
        // a room's history outlives the room. The index serves expiry, oldest activity first.
        SchemaMigration(version: 3, sql: """
            CREATE TABLE rooms (
                name             TEXT NOT NULL PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
                host_key_sha256  TEXT NOT NULL CHECK (length(host_key_sha256) = 64),
                created_at       REAL NOT NULL,
                last_activity_at REAL NOT NULL,
                settings_json    TEXT NOT NULL DEFAULT '{}'
            ) WITHOUT ROWID;
            CREATE INDEX rooms_by_activity ON rooms (last_activity_at);
            """),
        // Hosts bring their own entrants (issue 15). A room's list is its own table, one row a room,
        // so reading a room (every lookup) reads only the small summary, and the list itself (up to
        // 100,000 entrants) only when a draw starts; it goes with its room (ON DELETE CASCADE).
        // Draws get their winner count (k) and, for k > 1, the entrant index of each slot; rows of
        // older draws read as k = 1, whose only slot is the last round's pick, as before.
        SchemaMigration(version: 4, sql: """
            CREATE TABLE room_entrants (
                room           TEXT NOT NULL PRIMARY KEY REFERENCES rooms (name) ON DELETE CASCADE,
                entrants_json  TEXT NOT NULL,
                warnings_json  TEXT NOT NULL,
                users_source   TEXT NOT NULL,
                lottery_source TEXT NOT NULL,
                summary_json   TEXT NOT NULL
            ) WITHOUT ROWID;
            ALTER TABLE draws ADD COLUMN winners INTEGER NOT NULL DEFAULT 1 CHECK (winners >= 1);
            ALTER TABLE draws ADD COLUMN winner_picks_json TEXT;
            """),
        // A room's list fetched from URLs its host gave (issue 15): the two URLs, with the room
        // (small, read with it); both `NULL` when it has none. A room has these or a
        // `room_entrants` row or neither: each write of one clears the other.
        SchemaMigration(version: 5, sql: """
            ALTER TABLE rooms ADD COLUMN users_url TEXT;
            ALTER TABLE rooms ADD COLUMN lottery_url TEXT;
            """),
        // Each distinct entrant list once (issue 31): a soak of 37,768 draws left 3.7 GB, every
        // draw holding its own copy of lists that changed only every few draws. The list moves to
        // `entrant_lists`, keyed by its SHA-256, which a draw already stores as `entrants_hash`
        // (the SHA-256 of exactly the bytes `entrants_json` held), so draws reference a list by
        // that column and need no new one; a room's list gets `entrants_sha256`. Rows move in
        // Swift (`EntrantListTable.moveLists`: it checks that one hash never names two different lists,
        // and re-encodes rooms' lists to compute theirs), then the old columns go.
        // The trigger drops a list when the last room holding it lets go (replaced, deleted,
        // expired: ON DELETE CASCADE fires it too) and no draw references it; draws are kept for
        // good, so a list any draw used is never deleted. Rowid table, not WITHOUT ROWID: rows
        // are up to megabytes, which SQLite advises against in a WITHOUT ROWID table.
        SchemaMigration(version: 6, sql: """
            CREATE TABLE entrant_lists (
                sha256 TEXT NOT NULL PRIMARY KEY CHECK (length(sha256) = 64),
                json   TEXT NOT NULL
            );
            CREATE INDEX draws_by_entrants ON draws (entrants_hash);
            ALTER TABLE room_entrants ADD COLUMN entrants_sha256 TEXT REFERENCES entrant_lists (sha256);
            """, moveRows: EntrantListTable.moveLists, sqlAfter: """
            ALTER TABLE draws DROP COLUMN entrants_json;
            ALTER TABLE room_entrants DROP COLUMN entrants_json;
            CREATE INDEX room_entrants_by_list ON room_entrants (entrants_sha256);
            CREATE TRIGGER entrant_list_released AFTER DELETE ON room_entrants BEGIN
                DELETE FROM entrant_lists WHERE sha256 = OLD.entrants_sha256
                    AND NOT EXISTS (SELECT 1 FROM draws WHERE entrants_hash = OLD.entrants_sha256)
                    AND NOT EXISTS (SELECT 1 FROM room_entrants WHERE entrants_sha256 = OLD.entrants_sha256);
            END;
            """),
        // Cluster mode's durable outbox of shared history lines (issue 27, docs/SCALING.md "One
        // history"): a row per draw whose line this node still owes the cluster, written once
        // the draw's step is on disk and deleted only once Redis acknowledged the line, so a
        // node that dies or loses Redis meanwhile sends it after its restart. `token` is the
        // fencing token the line is written with (0: reconciled at start, no lease); `final`
        // whether it is the draw's end. A takeover of another node's draw (not in `draws`) keeps
        // what its record is made from: the seed, the rounds shown and when it ended, all or
        // none. No foreign key to `draws` for that reason. Rowid order is the order owed.
        SchemaMigration(version: 7, sql: """
            CREATE TABLE history_outbox (
                draw_id      TEXT    NOT NULL UNIQUE,
                room         TEXT    NOT NULL,
                token        INTEGER NOT NULL CHECK (token >= 0),
                final        INTEGER NOT NULL CHECK (final IN (0, 1)),
                seed_hex     TEXT    CHECK (seed_hex IS NULL OR length(seed_hex) = 64),
                rounds_shown INTEGER CHECK (rounds_shown IS NULL OR rounds_shown >= 0),
                ended_at     REAL,
                CHECK ((seed_hex IS NULL) = (rounds_shown IS NULL) AND (seed_hex IS NULL) = (ended_at IS NULL))
            );
            """),
        // One reveal per winner and redraws (issue 28, docs/FAIRNESS.md §5a, §5b): whether a draw
        // of several winners showed each with its own flips (its rows in `rounds` then run on past
        // the schedule's rounds, winner by winner), and, for a redraw, the draw it redraws with the
        // removed winner and the winners kept (`{"drawId":…,"removed":{…},"kept":[…]}`). Rows of
        // older draws read as they always did: together, no redraw.
        SchemaMigration(version: 8, sql: """
            ALTER TABLE draws ADD COLUMN reveal_each INTEGER NOT NULL DEFAULT 0 CHECK (reveal_each IN (0, 1));
            ALTER TABLE draws ADD COLUMN redraw_json TEXT;
            """),
        // Beacon draws (issue 30, docs/FAIRNESS.md §9): the chain and round the commitment names,
        // written with the plan, then the round's randomness and signature once fetched
        // (`{"chain":…,"round":…,"at":…,"randomness":…|null,"signature":…|null}`). `NULL` for every
        // draw made with the seed alone, so their rows are what they always were.
        SchemaMigration(version: 9, sql: """
            ALTER TABLE draws ADD COLUMN beacon_json TEXT;
            """),
        // Scheduled draws (issue 30): one row per draw waiting for its time, with everything it
        // is made of, fixed at scheduling (the seed, the list as it was then, the settings). A
        // table of its own, not a `draws` status: a waiting draw is no record yet, and the
        // records' statuses stay the set every verifier knows. Its list is its own column, not an
        // `entrant_lists` row: the row lives days at most, and the list's release trigger need
        // not know it. `room` is UNIQUE: one scheduled draw per room. The row goes when the draw
        // is claimed to start, to be cancelled or to be recorded missed (`ScheduledDrawStore`).
        SchemaMigration(version: 10, sql: """
            CREATE TABLE scheduled_draws (
                draw_id       TEXT    NOT NULL PRIMARY KEY,
                room          TEXT    NOT NULL UNIQUE,
                at            REAL    NOT NULL,
                created_at    REAL    NOT NULL,
                seed_hex      TEXT    NOT NULL CHECK (length(seed_hex) = 64),
                entrants_json TEXT    NOT NULL,
                warnings_json TEXT    NOT NULL,
                schedule_json TEXT    NOT NULL,
                winners       INTEGER NOT NULL CHECK (winners >= 1),
                reveal        TEXT    NOT NULL,
                users_url     TEXT    NOT NULL,
                lottery_url   TEXT    NOT NULL
            ) WITHOUT ROWID;
            """),
        // Scheduled beacon draws (issue 30, docs/FAIRNESS.md §10): the beacon round R a draw
        // committed to at scheduling (`{"chain":…,"round":…,"at":…}`, as `draws.beacon_json`
        // without values). `NULL`: a seed-only draw, as every row before this version.
        SchemaMigration(version: 11, sql: """
            ALTER TABLE scheduled_draws ADD COLUMN beacon_json TEXT;
            """),
        // Cluster mode's archive (issue 44, `ArchiveTable`): every ended draw this node learns of
        // from the shared store, kept for good, since Redis keeps a draw for its retention window
        // only. Its list is an `entrant_lists` row like a draw's own, so the release trigger now
        // also keeps a list an archived draw references. `archive_cursor`: how far the shared
        // store's ends stream was read (one row).
        SchemaMigration(version: 12, sql: """
            CREATE TABLE archived_draws (
                draw_id       TEXT    NOT NULL PRIMARY KEY,
                room          TEXT    NOT NULL,
                position      INTEGER NOT NULL CHECK (position > 0),
                summary       TEXT    NOT NULL,
                head          TEXT    NOT NULL,
                tail          TEXT    NOT NULL,
                entrants_hash TEXT    REFERENCES entrant_lists (sha256)
            );
            CREATE INDEX archived_draws_by_room ON archived_draws (room, position);
            CREATE INDEX archived_draws_by_entrants ON archived_draws (entrants_hash);
            CREATE TABLE archive_cursor (
                id     INTEGER NOT NULL PRIMARY KEY CHECK (id = 1),
                cursor TEXT    NOT NULL
            );
            DROP TRIGGER entrant_list_released;
            CREATE TRIGGER entrant_list_released AFTER DELETE ON room_entrants BEGIN
                DELETE FROM entrant_lists WHERE sha256 = OLD.entrants_sha256
                    AND NOT EXISTS (SELECT 1 FROM draws WHERE entrants_hash = OLD.entrants_sha256)
                    AND NOT EXISTS (SELECT 1 FROM room_entrants WHERE entrants_sha256 = OLD.entrants_sha256)
                    AND NOT EXISTS (SELECT 1 FROM archived_draws WHERE entrants_hash = OLD.entrants_sha256);
            END;
            """),
    ]

    /// The version this code writes and fully understands.
    static var currentVersion: Int { migrations.count }

    /// Brings `db` to the last version of `migrations`, or throws leaving it unchanged.
    /// `migrations` is a parameter only so tests can stop at an older version or inject a failing step.
    /// - Returns: whether a step moved rows (the caller then compacts the file).
    @discardableResult
    static func migrate(_ db: SQLiteConnection, busyTimeoutMs: Int,
                        migrations: [SchemaMigration] = migrations) throws(StorageError) -> Bool {
        let target = migrations.count
        var applying = 0
        var moved = false
        do {
            try db.transaction(writing: true) {
                let found = try db.scalarInt("PRAGMA user_version")
                guard found <= target else {
                    throw StorageError.newerSchema(path: db.path, found: found, supported: target)
                }
                for step in migrations[found...] {
                    applying = step.version
                    try db.execute(step.sql)
                    if let moveRows = step.moveRows, try moveRows(db) { moved = true }
                    if !step.sqlAfter.isEmpty { try db.execute(step.sqlAfter) }
                    // user_version lives in the file header, which the transaction covers, so the
                    // new number commits (or rolls back) together with the step's tables.
                    try db.execute("PRAGMA user_version = \(step.version)")
                }
            }
            return moved
        } catch let error as StorageError {
            throw error
        } catch let failure as SQLiteFailure {
            guard applying > 0 else { throw failure.openError(path: db.path, busyTimeoutMs: busyTimeoutMs) }
            throw .migrationFailed(path: db.path, toVersion: applying, reason: failure.message)
        } catch {
            throw .migrationFailed(path: db.path, toVersion: applying, reason: "\(error)")
        }
    }
}
