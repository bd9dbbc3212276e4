import DrawCore
import Foundation

/// Reads a record body written by `RecordMessages.record` back into the `DrawRecord` it was
/// written from, for cluster mode: a node that ends another node's draw (the takeover) has the
/// draw only as the shared `running` record, and makes its `interrupted` record from it.
///
/// Strict: a body this code did not write (a field missing or of the wrong type, a round whose
/// player is not the entrant its index names, a schedule no `RoundSchedule` gives, an unknown
/// status or warning) is refused (`nil`), never guessed at. Times come back at the writer's
/// microsecond resolution. A decelerating schedule whose gaps are all equal reads back as the
/// fixed one it is equal to (the body carries offsets, not how they were asked for).
public enum RecordBodyDecoder {
    /// The record `body` holds, or `nil` when it is not a record body.
    public static func decode(_ body: [UInt8]) -> DrawRecord? {
        guard let json = try? JSONDecoder().decode(BodyJSON.self, from: Data(body)), json.timesAreInRange,
              let status = DrawStatus(rawValue: json.status) else { return nil }
        guard let entrants = players(json.entrants), let warnings = warnings(json.warnings) else { return nil }
        var schedule: RoundSchedule?
        if let s = json.schedule {
            guard let made = Self.schedule(s) else { return nil }
            schedule = made
        }
        let eachWinner = json.reveal == "each"
        guard json.reveal == nil || eachWinner,
              let rounds = rounds(json.rounds, entrants: entrants, perWinner: eachWinner ? schedule?.rounds : nil)
        else { return nil }
        var redrawOf: RedrawLink?
        if let link = json.redrawOf {
            guard let removed = player(link.removed), let kept = players(link.kept) else { return nil }
            redrawOf = RedrawLink(drawId: link.drawId, removed: removed, kept: kept, number: link.number)
        }
        var beacon: DrawBeacon?
        if let b = json.beacon {
            guard let parsed = Self.beacon(b) else { return nil }
            beacon = parsed
        }
        var seed: Seed?
        if let hex = json.seed {
            guard let parsed = Seed(hex: hex) else { return nil }
            seed = parsed
        }
        let drawn = json.drawn.flatMap { player($0) }
        guard (json.drawn == nil) == (drawn == nil) else { return nil }
        if let drawn, json.outcome != DrawOutcome(drawn: drawn).wireName { return nil }
        let winners = json.winners ?? 1
        guard winners >= 1 else { return nil }
        var picks: [WinnerPick]?
        if let slots = json.winnerPicks {
            picks = []
            for (i, slot) in slots.enumerated() {
                guard entrants.indices.contains(slot.index), let p = player(slot.player), entrants[slot.index] == p else { return nil }
                picks?.append(WinnerPick(slot: i + 1, pickIndex: slot.index, player: p))
            }
        }
        let record = DrawRecord(
            drawId: json.drawId, room: json.room, status: status, createdAt: json.createdAt, startedAt: json.startedAt,
            finishedAt: json.finishedAt,
            sources: DrawSources(usersURL: json.sources.usersUrl, lotteryURL: json.sources.lotteryUrl),
            entrants: entrants, warnings: warnings, commitment: json.commitment, entrantsHash: json.entrantsHash,
            schedule: schedule, plannedRounds: rounds, plannedDrawn: drawn, storedSeed: seed,
            failure: json.failure.map { DrawFailure(code: $0.code, message: $0.message) }, abortReason: json.abortReason,
            winners: winners, plannedWinnerPicks: winners > 1 ? picks : nil,
            revealsEachWinner: eachWinner, redrawOf: redrawOf, beacon: beacon)
        // What the record keeps of the body must be all of it: a seed on a running record, or
        // rounds a running record would drop, mean the body is not one `record` wrote.
        guard record.rounds.count == rounds.count, record.seed == seed else { return nil }
        return record
    }

    /// A beacon draw's `beacon` (FAIRNESS.md §9): its round's values both there or both `null`.
    private static func beacon(_ b: BeaconJSON) -> DrawBeacon? {
        DrawBeacon(chainHash: b.chain, round: b.round, roundAtMs: b.at, randomnessHex: b.randomness,
                   signatureHex: b.signature)
    }

    private static func player(_ p: PlayerJSON) -> Player? {
        guard let date = CalendarDate(iso: p.regDate) else { return nil }
        return Player(userId: p.userId, name: p.name, username: p.username, regDate: date, isVoid: p.void)
    }

    private static func players(_ list: [PlayerJSON]) -> [Player]? {
        var players: [Player] = []
        players.reserveCapacity(list.count)
        for p in list {
            guard let made = player(p) else { return nil }
            players.append(made)
        }
        return players
    }

    /// Each warning from its code and user, checked against its message (which alone carries the
    /// first user of a `duplicate_name`).
    private static func warnings(_ list: [WarningJSON]) -> [MergeWarning]? {
        var warnings: [MergeWarning] = []
        for w in list {
            let made: MergeWarning
            switch w.code {
            case "unknown_user": made = .unknownUser(userId: w.userId)
            case "duplicate_entry": made = .duplicateEntry(userId: w.userId)
            case "duplicate_user": made = .duplicateUser(userId: w.userId)
            case "duplicate_name":
                guard let tail = w.message.range(of: "as entrant ")?.upperBound,
                      let first = Int(w.message[tail...].prefix { $0.isNumber }) else { return nil }
                made = .duplicateName(userId: w.userId, firstUserId: first)
            default: return nil
            }
            guard made.message == w.message else { return nil }
            warnings.append(made)
        }
        return warnings
    }

    /// The schedule whose offsets these are: equal gaps are a fixed pace, others a deceleration
    /// from the first gap to the last; refused unless it gives exactly these offsets.
    private static func schedule(_ s: ScheduleJSON) -> RoundSchedule? {
        guard s.offsetsMs.count == s.rounds, let last = s.offsetsMs.last else { return nil }
        // Any Int can arrive: a gap that overflows is no schedule (`RoundSchedule` bounds the rest).
        var gaps: [Int] = []
        for (later, earlier) in zip(s.offsetsMs.dropFirst() + [s.finishOffsetMs], s.offsetsMs) {
            let (gap, overflow) = later.subtractingReportingOverflow(earlier)
            guard !overflow else { return nil }
            gaps.append(gap)
        }
        let pace: RoundSchedule.Pace = Set(gaps).count == 1
            ? .fixed(intervalMs: gaps[0]) : .decelerating(firstMs: gaps[0], lastMs: gaps[gaps.count - 1])
        guard let schedule = RoundSchedule(rounds: s.rounds, pace: pace, countdownMs: s.countdownMs ?? 0),
              schedule.roundOffsetsMs == s.offsetsMs, schedule.finishOffsetMs == s.finishOffsetMs else { return nil }
        return schedule
    }

    /// The rounds in order (1, 2, …), each naming the entrant its index points at. With
    /// `perWinner` (a draw revealing each winner) a round is numbered within its `winner`.
    private static func rounds(_ list: [RoundJSON], entrants: [Player], perWinner: Int?) -> [RecordedRound]? {
        var rounds: [RecordedRound] = []
        for (i, r) in list.enumerated() {
            let slot = r.winner ?? 1
            // The slot and round are any Ints the body holds: bounded before the arithmetic (a
            // slot past the rounds' count, or a round outside 1…perWinner, is no round `record` wrote).
            guard (r.winner != nil) == (perWinner != nil), slot >= 1, slot <= list.count,
                  perWinner.map({ (1...max(1, $0)).contains(r.round) }) ?? true else { return nil }
            let global = perWinner.map { (slot - 1) * $0 + r.round } ?? r.round
            guard global == i + 1, entrants.indices.contains(r.index) else { return nil }
            let p = entrants[r.index]
            guard p.userId == r.userId, p.name == r.name, p.username == r.username else { return nil }
            rounds.append(RecordedRound(round: global, offsetMs: r.offsetMs, pickIndex: r.index, player: p,
                                        sentAt: r.sentAt, slot: slot, flip: r.round))
        }
        return rounds
    }
}

// The body's shape (`RecordMessages.record`); optionals are the fields written as `null`.

private struct BodyJSON: Decodable {
    let drawId: String
    let room: String
    let status: String
    let createdAt: Double
    let startedAt: Double?
    let finishedAt: Double?
    let sources: SourcesJSON
    let entrants: [PlayerJSON]
    let warnings: [WarningJSON]
    let commitment: String?
    let entrantsHash: String?
    let schedule: ScheduleJSON?
    let rounds: [RoundJSON]
    let outcome: String?
    let drawn: PlayerJSON?
    let winners: Int?
    let winnerPicks: [SlotJSON]?
    let seed: String?
    let failure: FailureJSON?
    let abortReason: String?
    let reveal: String?
    let redrawOf: RedrawJSON?
    let beacon: BeaconJSON?

    /// Whether every time is one a draw can have (`EpochMillis`): a record is written again
    /// (`JSONWriter.millis` makes integers of them), so a time out of range is no record body.
    var timesAreInRange: Bool {
        let times = [createdAt, startedAt, finishedAt, beacon?.at].compactMap { $0 } + rounds.compactMap(\.sentAt)
        return times.allSatisfy(EpochMillis.isInRange)
    }
}

private struct BeaconJSON: Decodable {
    let chain: String
    let round: UInt64
    let at: Double
    let randomness: String?
    let signature: String?
}

private struct RedrawJSON: Decodable {
    let drawId: String
    let removed: PlayerJSON
    let kept: [PlayerJSON]
    /// Absent from records written before redraws were numbered (issue 37): 1.
    let number: Int?
}

private struct SourcesJSON: Decodable {
    let usersUrl: String
    let lotteryUrl: String
}

private struct PlayerJSON: Decodable {
    let userId: Int
    let name: String
    let username: String
    let regDate: String
    let void: Bool
}

private struct WarningJSON: Decodable {
    let code: String
    let userId: Int
    let message: String
}

private struct ScheduleJSON: Decodable {
    let rounds: Int
    let countdownMs: Int?
    let offsetsMs: [Int]
    let finishOffsetMs: Int
}

private struct RoundJSON: Decodable {
    let round: Int
    let index: Int
    let userId: Int
    let name: String
    let username: String
    let sentAt: Double?
    let offsetMs: Int
    let winner: Int?
}

/// A winner slot: the entry's index and its player fields, side by side.
private struct SlotJSON: Decodable {
    let index: Int
    let player: PlayerJSON

    init(from decoder: any Decoder) throws {
        index = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: .index)
        player = try PlayerJSON(from: decoder)
    }

    private enum Key: String, CodingKey { case index }
}

private struct FailureJSON: Decodable {
    let code: String
    let message: String
}
