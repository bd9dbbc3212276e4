import DrawCore

/// The writes of the draw records, `draws` and their `rounds` (`DrawRecordStore`'s writes): a
/// draw's start with its plan, the moments it reaches, its end, a failure before planning, and
/// the restart's reconciliation. Each is one write of `database`, so inside a group it joins the
/// group's transaction; a draw's list goes to `EntrantListTable`, stored once.
struct DrawRecordWriter: Sendable {
    let database: DrawDatabase

    func insertStarted(_ record: NewDrawRecord) throws(StorageError) {
        let plan = record.plan
        try database.write("record the start of draw \(plan.drawId)") { db in
            try Self.requireNew(plan.drawId, in: db)
            // The list once (schema 6): an unchanged list is compared, not stored again.
            try EntrantListTable.keep(CanonicalEntrantList.bytes(plan.entrants), hash: plan.entrantsHash, in: db)
            try db.run("""
                INSERT INTO draws (draw_id, room, status, created_at, started_at, users_url, lottery_url,
                                   entrant_count, warnings_json, commitment, entrants_hash,
                                   schedule_json, seed_hex, drawn_json)
                VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [
                    .text(plan.drawId), .text(record.room), .real(record.createdAt), .real(record.startedAt),
                    .text(record.sources.usersURL), .text(record.sources.lotteryURL),
                    .int(plan.entrants.count),
                    .text(StoredJSON.warnings(plan.warnings)), .text(plan.commitment), .text(plan.entrantsHash),
                    .text(StoredJSON.schedule(plan.schedule)), .text(plan.seed.hex),
                    .text(StoredJSON.player(plan.outcome.drawn)),
                ])
            let seq = db.lastInsertRowID
            // Only a draw with several winners fills these (schema 4): a one-winner draw's row is
            // what it always was, the columns' defaults saying k = 1.
            if plan.winners > 1 {
                try db.run("UPDATE draws SET winners = ?, winner_picks_json = ? WHERE seq = ?",
                           [.int(plan.winners), .text(StoredJSON.pickIndices(plan.winnerPicks)), .integer(seq)])
            }
            // Likewise only a draw revealing each winner, or a redraw (schema 8).
            if plan.revealsEachWinner || plan.redrawOf != nil {
                try db.run("UPDATE draws SET reveal_each = ?, redraw_json = ? WHERE seq = ?",
                           [.int(plan.revealsEachWinner ? 1 : 0), plan.redrawOf.map { .text(StoredJSON.redraw($0)) } ?? .null,
                            .integer(seq)])
            }
            // Only a beacon draw (schema 9): its round, without picks until the round is fetched.
            if let beacon = plan.beacon {
                try db.run("UPDATE draws SET beacon_json = ? WHERE seq = ?", [.text(StoredJSON.beacon(beacon)), .integer(seq)])
            }
            try Self.insertRounds(of: plan, seq: seq, in: db)
        }
    }

    func recordBeacon(_ plan: DrawPlan) throws(StorageError) {
        guard let beacon = plan.beacon, !plan.isAwaitingBeacon else { return }
        try database.write("record the beacon round of draw \(plan.drawId)") { db in
            let seq = try Self.runningSeq(of: plan.drawId, in: db)
            try db.run("UPDATE draws SET beacon_json = ?, drawn_json = ? WHERE seq = ?",
                       [.text(StoredJSON.beacon(beacon)), .text(StoredJSON.player(plan.outcome.drawn)), .integer(seq)])
            if plan.winners > 1 {
                try db.run("UPDATE draws SET winner_picks_json = ? WHERE seq = ?",
                           [.text(StoredJSON.pickIndices(plan.winnerPicks)), .integer(seq)])
            }
            try Self.insertRounds(of: plan, seq: seq, in: db)
        }
    }

    private static func insertRounds(of plan: DrawPlan, seq: Int64, in db: SQLiteConnection) throws {
        let insertRound = try db.prepare(
            "INSERT INTO rounds (draw_seq, round, offset_ms, pick_index) VALUES (?, ?, ?, ?)")
        for r in plan.rounds {
            insertRound.reset()
            try insertRound.bind([.integer(seq), .int(r.round), .int(r.offsetMs), .int(r.pickIndex)])
            try insertRound.run()
        }
    }

    func stampStarted(drawId: String, startedAt: Double) throws(StorageError) {
        try database.write("record when draw \(drawId) started") { db in
            let seq = try Self.runningSeq(of: drawId, in: db)
            try db.run("UPDATE draws SET started_at = ? WHERE seq = ?", [.real(startedAt), .integer(seq)])
        }
    }

    func recordRound(drawId: String, round: Int, sentAt: Double) throws(StorageError) {
        try database.write("record round \(round) of draw \(drawId)") { db in
            let seq = try Self.runningSeq(of: drawId, in: db)
            try db.run("UPDATE rounds SET sent_at = ? WHERE draw_seq = ? AND round = ?",
                       [.real(sentAt), .integer(seq), .int(round)])
            guard db.changes == 1 else { throw StorageError.unknownRound(drawId: drawId, round: round) }
        }
    }

    func finish(drawId: String, ending: DrawEnding, finishedAt: Double) throws(StorageError) {
        let reason: String?
        if case .aborted(let r) = ending { reason = r } else { reason = nil }
        try database.write("record the end of draw \(drawId)") { db in
            let seq = try Self.runningSeq(of: drawId, in: db)
            try db.run("UPDATE draws SET status = ?, finished_at = ?, abort_reason = ? WHERE seq = ?",
                       [.text(ending.status.rawValue), .real(finishedAt), .string(reason), .integer(seq)])
        }
    }

    func insertFailed(_ record: FailedDrawRecord) throws(StorageError) {
        try database.write("record the failure of draw \(record.drawId)") { db in
            try Self.requireNew(record.drawId, in: db)
            try db.run("""
                INSERT INTO draws (draw_id, room, status, created_at, finished_at, users_url, lottery_url,
                                   entrant_count, warnings_json, failure_code, failure_message)
                VALUES (?, ?, 'failed', ?, ?, ?, ?, 0, ?, ?, ?)
                """, [
                    .text(record.drawId), .text(record.room), .real(record.createdAt), .real(record.failedAt),
                    .text(record.sources.usersURL), .text(record.sources.lotteryURL),
                    .text(StoredJSON.warnings(record.warnings)),
                    .text(record.failure.code), .text(record.failure.message),
                ])
        }
    }

    @discardableResult
    func markRunningInterrupted(at: Double) throws(StorageError) -> Int {
        try database.write("mark running draws interrupted") { db in try Self.interruptRunning(at: at, in: db) }
    }

    /// Marks every draw still `running` interrupted at `at`, inside the caller's write
    /// transaction (the history outbox owes their lines in the same one); how many it marked.
    static func interruptRunning(at: Double, in db: SQLiteConnection) throws -> Int {
        try db.run("UPDATE draws SET status = 'interrupted', finished_at = ? WHERE status = 'running'", [.real(at)])
        return db.changes
    }

    // MARK: Checks inside a write transaction

    private static func requireNew(_ drawId: String, in db: SQLiteConnection) throws {
        guard try db.scalarInt("SELECT count(*) FROM draws WHERE draw_id = ?", [.text(drawId)]) == 0 else {
            throw StorageError.duplicateDraw(drawId: drawId)
        }
    }

    /// The `seq` of a draw that is still running; `unknownDraw` or `notRunning` otherwise.
    private static func runningSeq(of drawId: String, in db: SQLiteConnection) throws -> Int64 {
        let query = try db.prepare("SELECT seq, status FROM draws WHERE draw_id = ?")
        try query.bind([.text(drawId)])
        guard try query.step() else { throw StorageError.unknownDraw(drawId: drawId) }
        let status = query.text(1).flatMap(DrawStatus.init(rawValue:))
        guard status == .running else {
            throw StorageError.notRunning(drawId: drawId, status: status ?? .failed)
        }
        return query.int64(0)
    }
}
