import DrawCore

/// A row of `draws` (and its `rounds`) made back into Core's values, every failure naming its draw.
extension DrawRecordReader {
    static func summary(from row: SQLiteStatement) throws -> DrawSummary {
        typealias C = SummaryColumn
        let drawId = row.text(C.drawId.rawValue) ?? ""
        return try decoding(drawId) {
            DrawSummary(drawId: drawId, room: row.text(C.room.rawValue) ?? "",
                        status: try status(row.text(C.status.rawValue)),
                        createdAt: row.double(C.createdAt.rawValue) ?? 0,
                        startedAt: row.double(C.startedAt.rawValue), finishedAt: row.double(C.finishedAt.rawValue),
                        entrantCount: row.int(C.entrantCount.rawValue), roundsShown: row.int(C.roundsShown.rawValue),
                        commitment: row.text(C.commitment.rawValue),
                        plannedDrawn: try row.text(C.drawn.rawValue).map(StoredJSON.player(from:)),
                        failureCode: row.text(C.failureCode.rawValue), winners: row.int(C.winners.rawValue),
                        redrawOf: try row.text(C.redraw.rawValue).map(StoredJSON.redraw(from:)))
        }
    }

    static func record(from row: SQLiteStatement, in db: SQLiteConnection) throws -> DrawRecord {
        typealias C = RecordColumn
        let drawId = row.text(C.drawId.rawValue) ?? ""
        let entrants = try decoding(drawId) { try Self.entrants(from: row) }
        let eachWinner = row.int(C.revealEach.rawValue) == 1
        let schedule = try decoding(drawId) { try row.text(C.schedule.rawValue).map(StoredJSON.schedule(from:)) }
        let rounds = try Self.rounds(ofSeq: row.int64(C.seq.rawValue), drawId: drawId, entrants: entrants,
                                     perWinner: eachWinner ? schedule?.rounds : nil, in: db)
        return try decoding(drawId) {
            let failure = row.text(C.failureCode.rawValue).map {
                DrawFailure(code: $0, message: row.text(C.failureMessage.rawValue) ?? "")
            }
            let seed = try row.text(C.seed.rawValue).map { (hex: String) throws(StoredJSON.Invalid) in
                guard let seed = Seed(hex: hex) else { throw StoredJSON.Invalid(description: "stored seed is not 64 hex") }
                return seed
            }
            return DrawRecord(
                drawId: drawId, room: row.text(C.room.rawValue) ?? "",
                status: try status(row.text(C.status.rawValue)),
                createdAt: row.double(C.createdAt.rawValue) ?? 0,
                startedAt: row.double(C.startedAt.rawValue), finishedAt: row.double(C.finishedAt.rawValue),
                sources: DrawSources(usersURL: row.text(C.usersURL.rawValue) ?? "",
                                     lotteryURL: row.text(C.lotteryURL.rawValue) ?? ""),
                entrants: entrants,
                warnings: try StoredJSON.warnings(from: row.text(C.warnings.rawValue) ?? ""),
                commitment: row.text(C.commitment.rawValue), entrantsHash: row.text(C.entrantsHash.rawValue),
                schedule: schedule,
                plannedRounds: rounds,
                plannedDrawn: try row.text(C.drawn.rawValue).map(StoredJSON.player(from:)),
                storedSeed: seed, failure: failure, abortReason: row.text(C.abortReason.rawValue),
                winners: row.int(C.winners.rawValue),
                plannedWinnerPicks: try row.text(C.winnerPicks.rawValue).map {
                    try StoredJSON.winnerPicks(from: $0, entrants: entrants)
                },
                revealsEachWinner: eachWinner,
                redrawOf: try row.text(C.redraw.rawValue).map(StoredJSON.redraw(from:)),
                beacon: try row.text(C.beacon.rawValue).map(StoredJSON.beacon(from:)))
        }
    }

    /// The record's list, shared in `entrant_lists` (schema 6). No hash: a draw that failed
    /// before planning, which never had a list (stored as `[]` up to schema 5).
    static func entrants(from row: SQLiteStatement) throws(StoredJSON.Invalid) -> [Player] {
        guard let hash = row.text(RecordColumn.entrantsHash.rawValue) else { return [] }
        guard let json = row.text(RecordColumn.entrants.rawValue) else {
            throw StoredJSON.Invalid(description: "its entrant list \(hash) is missing")
        }
        return try StoredJSON.entrants(from: json)
    }

    /// With `perWinner` (a draw revealing each winner) each row's winner and flip follow from its
    /// number (`WinnerReveal.slotAndFlip`).
    static func rounds(ofSeq seq: Int64, drawId: String, entrants: [Player], perWinner: Int?,
                               in db: SQLiteConnection) throws -> [RecordedRound] {
        let query = try db.prepare(
            "SELECT round, offset_ms, pick_index, sent_at FROM rounds WHERE draw_seq = ? ORDER BY round")
        try query.bind([.integer(seq)])
        var rounds: [RecordedRound] = []
        while try query.step() {
            let index = query.int(2)
            guard entrants.indices.contains(index) else {
                throw StoredJSON.Invalid(description: "draw \(drawId): round \(query.int(0)) picks entrant "
                                         + "\(index) of \(entrants.count)")
            }
            let round = query.int(0)
            let place = perWinner.map { WinnerReveal.slotAndFlip(round: round, perWinner: $0) } ?? (1, round)
            rounds.append(RecordedRound(round: round, offsetMs: query.int(1), pickIndex: index,
                                        player: entrants[index], sentAt: query.double(3),
                                        slot: place.0, flip: place.1))
        }
        return rounds
    }

    static func status(_ text: String?) throws(StoredJSON.Invalid) -> DrawStatus {
        guard let text, let status = DrawStatus(rawValue: text) else {
            throw StoredJSON.Invalid(description: "unknown status \(text ?? "NULL")")
        }
        return status
    }

    /// Prefixes a decoding failure with the draw it concerns.
    static func decoding<T>(_ drawId: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let invalid as StoredJSON.Invalid {
            throw StoredJSON.Invalid(description: "draw \(drawId): \(invalid.description)")
        }
    }
}
