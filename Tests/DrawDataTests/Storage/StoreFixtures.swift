@testable import DrawData
import DrawCore
import Foundation
import Testing

/// Plans, records and temporary databases for the storage tests.
enum StoreFixtures {
    static let sources = DrawSources(usersURL: "https://example.test/users.json",
                                     lotteryURL: "file:///srv/live-draw/usersInLottery.json")

    /// Four players with names that exercise escaping and non-ASCII text; the last one is void.
    static let unicodePlayers: [Player] = [
        player(10, "Zoë \"Q\" Ünïcode 🎲", "zoe\\slash", "2020-10-19", void: false),
        player(22, "名前 テスト", "名前", "2019-08-19", void: false),
        player(4, "Tab\tand\nnewline", "مهسا", "2018-10-02", void: false),
        player(182, "Mohsen", "AghaMohsen", "2020-04-12", void: true),
    ]

    static let allWarnings: [MergeWarning] = [.unknownUser(userId: 999), .duplicateEntry(userId: 22),
                                              .duplicateUser(userId: 4), .duplicateName(userId: 7, firstUserId: 3)]

    static let decelerating = RoundSchedule(rounds: 10, pace: .decelerating(firstMs: 100, lastMs: 900))!

    /// 32 bytes of 0x09: with four entrants and ten rounds the last pick is index 3 (FAIRNESS.md §7),
    /// the void entry, so the draw has no winner.
    static let voidSeed = Seed(bytes: Array(repeating: 9, count: 32))!

    /// A well-formed draw id made from a number, so tests can tell draws apart.
    static func drawId(_ n: Int) -> String {
        let digits = String(n, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }

    static func player(_ id: Int, _ name: String, _ username: String, _ date: String, void: Bool) -> Player {
        Player(userId: id, name: name, username: username, regDate: CalendarDate(iso: date)!, isVoid: void)
    }

    /// A plan over `players` with a seed and id derived from `n`.
    static func plan(_ n: Int, players: [Player] = unicodePlayers, warnings: [MergeWarning] = [],
                     schedule: RoundSchedule = .original) -> DrawPlan {
        let seed = Seed(bytes: (0..<32).map { UInt8(truncatingIfNeeded: $0 &+ n &* 7) })!
        return DrawPlan.make(drawId: drawId(n), entrants: players, warnings: warnings, seed: seed,
                             schedule: schedule)
    }

    static func started(_ plan: DrawPlan, room: String = "lobby", createdAt: Double = 1_732_262_399_800.25,
                        startedAt: Double = 1_732_262_400_000.5) -> NewDrawRecord {
        NewDrawRecord(room: room, plan: plan, sources: sources, createdAt: createdAt, startedAt: startedAt)
    }

    /// Runs a whole draw through `store`: start, every round, finish. Round r is sent at `startedAt + r`.
    static func runToEnd(_ record: NewDrawRecord, in store: some DrawRecordStore,
                         finishedAt: Double? = nil) throws(StorageError) {
        try store.insertStarted(record)
        for r in record.plan.rounds {
            try store.recordRound(drawId: record.drawId, round: r.round, sentAt: record.startedAt + Double(r.round))
        }
        try store.finish(drawId: record.drawId, ending: .finished,
                         finishedAt: finishedAt ?? record.startedAt + Double(record.plan.finishOffsetMs))
    }

    /// A draw row as releases before schema 6 wrote it (the columns of schema 1, its own copy of
    /// the list in `entrants_json`), every round shown, finished unless `running`: the new code
    /// no longer writes that layout, so older files are filled with these.
    static func insertOldDraw(_ plan: DrawPlan, room: String = "old", running: Bool = false, json: String? = nil,
                              in db: SQLiteConnection) throws {
        try db.run("""
            INSERT INTO draws (draw_id, room, status, created_at, started_at, finished_at, users_url, lottery_url,
                               entrants_json, entrant_count, warnings_json, commitment, entrants_hash,
                               schedule_json, seed_hex, drawn_json)
            VALUES (?, ?, ?, 1, 2, ?, 'https://u.test', 'https://l.test', ?, ?, '[]', ?, ?, ?, ?, ?)
            """, [.text(plan.drawId), .text(room), .text(running ? "running" : "finished"),
                  running ? .null : .real(3), .text(json ?? StoredJSON.entrants(plan.entrants)), .int(plan.entrants.count),
                  .text(plan.commitment), .text(plan.entrantsHash), .text(StoredJSON.schedule(plan.schedule)),
                  .text(plan.seed.hex), .text(StoredJSON.player(plan.outcome.drawn))])
        let seq = db.lastInsertRowID
        for r in plan.rounds {
            try db.run("INSERT INTO rounds (draw_seq, round, offset_ms, pick_index, sent_at) VALUES (?, ?, ?, ?, ?)",
                       [.integer(seq), .int(r.round), .int(r.offsetMs), .int(r.pickIndex), .real(Double(2 + r.round))])
        }
    }

    /// Caps the database at its current size with SQLite's `max_page_count`: the same SQLITE_FULL
    /// as a full disk, without filling one. `unfill` lifts the cap again.
    static func fill(_ store: SQLiteDrawStore) throws {
        try store.withConnection { db in
            let pages = try db.scalarInt("PRAGMA page_count")
            try db.execute("PRAGMA max_page_count = \(pages)")
        }
    }

    static func unfill(_ store: SQLiteDrawStore) throws {
        try store.withConnection { db in try db.execute("PRAGMA max_page_count = 1073741823") }
    }

    /// A plan over 300 players with long names: too big to fit a database that `fill` capped.
    static func bigPlan(_ n: Int) -> DrawPlan {
        let crowd = (1...300).map {
            player($0, String(repeating: "Name \($0) ", count: 20), "user\($0)", "2020-01-01", void: false)
        }
        return plan(n, players: crowd)
    }

    /// A store in a fresh temporary directory, removed when `body` returns.
    static func withStore<T>(_ configure: (inout SQLiteDrawStore.Configuration) -> Void = { _ in },
                             _ body: (SQLiteDrawStore, TemporaryDirectory) throws -> T) throws -> T {
        try withTemporaryDirectory { dir in
            var configuration = SQLiteDrawStore.Configuration(path: dir.path("draws.sqlite"))
            configure(&configuration)
            let store = try SQLiteDrawStore(configuration: configuration)
            defer { store.close() }
            return try body(store, dir)
        }
    }

    /// A store at `path` as an older release made it: only the first `version` migration steps.
    static func store(at path: String, schemaVersion version: Int) throws -> SQLiteDrawStore {
        var older = SQLiteDrawStore.Configuration(path: path)
        older.migrations = Array(DrawStoreSchema.migrations.prefix(version))
        return try SQLiteDrawStore(configuration: older)
    }

    static func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        return try body(dir)
    }
}

/// A directory under the system's temporary directory, unique to one test.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("live-draw-store-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// The `StorageError` an operation throws, or `nil` if it succeeds.
///
/// Takes an untyped closure because closures do not infer typed throws yet; the store's API is
/// `throws(StorageError)`, so any other error is a test failure.
func storageError(_ operation: () throws -> Void) -> StorageError? {
    do {
        try operation()
        return nil
    } catch let error as StorageError {
        return error
    } catch {
        Issue.record("expected a StorageError, got \(error)")
        return nil
    }
}

/// Checks the operator-facing form of an open failure: one line that names the file.
func expectOneLine(_ error: StorageError?, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let error else {
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return
    }
    let text = error.description
    #expect(!text.contains("\n") && !text.contains("\r"), "not one line: \(text)", sourceLocation: sourceLocation)
    #expect(text.contains(path), "does not name \(path): \(text)", sourceLocation: sourceLocation)
}

/// Every storage suite nests here, so they run one test at a time.
///
/// Why: these tests block their thread on fsync (synchronous=FULL) and on writer threads. Run in
/// parallel they would hold every thread of Swift's cooperative pool (two on this machine) and
/// starve timing-sensitive tests elsewhere in the bundle; serialised they hold at most one.
@Suite(.serialized) enum StorageTests {}
