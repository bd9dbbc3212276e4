import DrawCore
import Foundation

/// The JSON forms of the structured columns, and their decoding back into Core entities.
///
/// Entrants are written with `EntrantsEncoding.canonicalJSON` (see `DrawStoreSchema`); the other
/// columns use these small Codable shapes, whose field names match the wire's so a record read
/// with the `sqlite3` shell looks like the protocol's messages.
enum StoredJSON {
    struct PlayerJSON: Codable {
        let userId: Int
        let name: String
        let username: String
        let regDate: String
        let void: Bool
    }

    struct WarningJSON: Codable {
        let code: String
        let userId: Int
        /// Only `duplicate_name` has it; absent (not `null`) for the others, so their stored form
        /// is what it always was.
        let firstUserId: Int?
    }

    struct ScheduleJSON: Codable {
        let rounds: Int
        /// `fixed` or `decelerating`.
        let pace: String
        let intervalMs: Int?
        let firstMs: Int?
        let lastMs: Int?
        /// Absent in records written before countdowns (and when there is none): 0.
        var countdownMs: Int? = nil
    }

    /// A room's settings (`RoomSettings`): every member optional, absent when not chosen (rooms
    /// stored before a member existed lack it); decoding ignores unknown members.
    struct SettingsJSON: Codable {
        var rounds: Int?
        var intervalMs: Int?
        var decelerateToMs: Int?
        var winners: Int?
        var countdownMs: Int?
        var title: String?
        var prize: String?
    }

    /// What a room's snapshot shows of its own list (`RoomEntrantsSummary` without its sources,
    /// which have their own columns).
    struct SummaryJSON: Codable {
        struct Count: Codable {
            let code: String
            let count: Int
        }
        let count: Int
        let warnings: [Count]
        let allVoid: Bool
    }

    /// A redraw's link (`RedrawLink`, schema 8).
    struct RedrawJSON: Codable {
        let drawId: String
        let removed: PlayerJSON
        let kept: [PlayerJSON]
        /// Absent in links kept before redraws were numbered (issue 37): 1.
        let number: Int?
    }

    /// A beacon draw's chain, round and, once fetched, the round's values (`DrawBeacon`, schema 9).
    struct BeaconJSON: Codable {
        let chain: String
        let round: UInt64
        let at: Double
        let randomness: String?
        let signature: String?
    }

    /// A stored value that cannot be turned back into an entity: the file was edited or damaged.
    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    // MARK: Encoding

    static func entrants(_ players: [Player]) -> String {
        String(decoding: EntrantsEncoding.canonicalJSON(players), as: UTF8.self)
    }

    static func player(_ p: Player) -> String {
        encode(PlayerJSON(userId: p.userId, name: p.name, username: p.username,
                          regDate: p.regDate.description, void: p.isVoid))
    }

    static func warnings(_ warnings: [MergeWarning]) -> String {
        encode(warnings.map { (w: MergeWarning) -> WarningJSON in
            if case .duplicateName(let id, let first) = w {
                return WarningJSON(code: w.code, userId: id, firstUserId: first)
            }
            return WarningJSON(code: w.code, userId: w.userId, firstUserId: nil)
        })
    }

    static func schedule(_ s: RoundSchedule) -> String {
        let countdown = s.countdownMs > 0 ? s.countdownMs : nil
        switch s.pace {
        case .fixed(let ms):
            return encode(ScheduleJSON(rounds: s.rounds, pace: "fixed", intervalMs: ms, firstMs: nil, lastMs: nil,
                                       countdownMs: countdown))
        case .decelerating(let first, let last):
            return encode(ScheduleJSON(rounds: s.rounds, pace: "decelerating", intervalMs: nil,
                                       firstMs: first, lastMs: last, countdownMs: countdown))
        }
    }

    static func settings(_ s: RoomSettings) -> String {
        encode(SettingsJSON(rounds: s.rounds, intervalMs: s.intervalMs, decelerateToMs: s.decelerateToMs,
                            winners: s.winners, countdownMs: s.countdownMs, title: s.title, prize: s.prize))
    }

    static func summary(_ s: RoomEntrantsSummary) -> String {
        encode(SummaryJSON(count: s.count, warnings: s.warningCounts.map { .init(code: $0.code, count: $0.count) },
                           allVoid: s.allVoid))
    }

    /// Winner slots as the entrant index of each, in slot order (`[3,0,7]`).
    static func pickIndices(_ picks: [WinnerPick]) -> String {
        encode(picks.map(\.pickIndex))
    }

    static func redraw(_ link: RedrawLink) -> String {
        encode(RedrawJSON(drawId: link.drawId, removed: playerJSON(link.removed), kept: link.kept.map(playerJSON),
                          number: link.number))
    }

    static func beacon(_ b: DrawBeacon) -> String {
        encode(BeaconJSON(chain: b.chainHash, round: b.round, at: b.roundAtMs, randomness: b.value?.randomnessHex,
                          signature: b.value?.signatureHex))
    }

    private static func playerJSON(_ p: Player) -> PlayerJSON {
        PlayerJSON(userId: p.userId, name: p.name, username: p.username, regDate: p.regDate.description, void: p.isVoid)
    }

    private static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs of strings, numbers and booleans cannot fail.
        guard let data = try? encoder.encode(value) else { preconditionFailure("unencodable \(T.self)") }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Decoding

    static func entrants(from text: String) throws(Invalid) -> [Player] {
        try decode([PlayerJSON].self, from: text, what: "entrants").map { (p: PlayerJSON) throws(Invalid) in
            try player(p)
        }
    }

    static func player(from text: String) throws(Invalid) -> Player {
        try player(decode(PlayerJSON.self, from: text, what: "drawn entry"))
    }

    static func warnings(from text: String) throws(Invalid) -> [MergeWarning] {
        try decode([WarningJSON].self, from: text, what: "warnings").map { (w: WarningJSON) throws(Invalid) in
            switch w.code {
            case "unknown_user": return .unknownUser(userId: w.userId)
            case "duplicate_entry": return .duplicateEntry(userId: w.userId)
            case "duplicate_user": return .duplicateUser(userId: w.userId)
            case "duplicate_name":
                guard let first = w.firstUserId else { throw Invalid(description: "duplicate_name without firstUserId") }
                return .duplicateName(userId: w.userId, firstUserId: first)
            default: throw Invalid(description: "unknown warning code \(w.code)")
            }
        }
    }

    static func schedule(from text: String) throws(Invalid) -> RoundSchedule {
        let s = try decode(ScheduleJSON.self, from: text, what: "schedule")
        let pace: RoundSchedule.Pace?
        switch (s.pace, s.intervalMs, s.firstMs, s.lastMs) {
        case ("fixed", let ms?, _, _): pace = .fixed(intervalMs: ms)
        case ("decelerating", _, let first?, let last?): pace = .decelerating(firstMs: first, lastMs: last)
        default: pace = nil
        }
        guard let pace, let schedule = RoundSchedule(rounds: s.rounds, pace: pace, countdownMs: s.countdownMs ?? 0) else {
            throw Invalid(description: "stored schedule \(text) is not a valid schedule")
        }
        return schedule
    }

    static func settings(from text: String) throws(Invalid) -> RoomSettings {
        let s = try decode(SettingsJSON.self, from: text, what: "room settings")
        return RoomSettings(rounds: s.rounds, intervalMs: s.intervalMs, decelerateToMs: s.decelerateToMs,
                            winners: s.winners, countdownMs: s.countdownMs, title: s.title, prize: s.prize)
    }

    static func summary(from text: String, sources: DrawSources) throws(Invalid) -> RoomEntrantsSummary {
        let s = try decode(SummaryJSON.self, from: text, what: "room entrants summary")
        return RoomEntrantsSummary(count: s.count, warningCounts: s.warnings.map { WarningCount(code: $0.code, count: $0.count) },
                                   allVoid: s.allVoid, sources: sources)
    }

    /// The entrant indices of `winner_picks_json`, in slot order.
    static func indices(from text: String) throws(Invalid) -> [Int] {
        try decode([Int].self, from: text, what: "winner picks")
    }

    static func winnerPicks(from text: String, entrants: [Player]) throws(Invalid) -> [WinnerPick] {
        let indices = try indices(from: text)
        return try indices.enumerated().map { (slot, index) throws(Invalid) -> WinnerPick in
            guard entrants.indices.contains(index) else {
                throw Invalid(description: "winner slot \(slot + 1) picks entrant \(index) of \(entrants.count)")
            }
            return WinnerPick(slot: slot + 1, pickIndex: index, player: entrants[index])
        }
    }

    static func redraw(from text: String) throws(Invalid) -> RedrawLink {
        let r = try decode(RedrawJSON.self, from: text, what: "redraw link")
        var kept: [Player] = []
        for p in r.kept { kept.append(try player(p)) }
        return RedrawLink(drawId: r.drawId, removed: try player(r.removed), kept: kept, number: r.number)
    }

    static func beacon(from text: String) throws(Invalid) -> DrawBeacon {
        let b = try decode(BeaconJSON.self, from: text, what: "beacon")
        guard EpochMillis.isInRange(b.at),
              let beacon = DrawBeacon(chainHash: b.chain, round: b.round, roundAtMs: b.at, randomnessHex: b.randomness,
                                      signatureHex: b.signature) else {
            throw Invalid(description: "stored beacon round \(b.round) is not a chain, a round and its values")
        }
        return beacon
    }

    private static func player(_ p: PlayerJSON) throws(Invalid) -> Player {
        guard let date = CalendarDate(iso: p.regDate) else {
            throw Invalid(description: "stored regDate \(p.regDate) of user \(p.userId) is not yyyy-MM-dd")
        }
        return Player(userId: p.userId, name: p.name, username: p.username, regDate: date, isVoid: p.void)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from text: String, what: String) throws(Invalid) -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw Invalid(description: "stored \(what) JSON does not have the expected shape")
        }
    }
}
