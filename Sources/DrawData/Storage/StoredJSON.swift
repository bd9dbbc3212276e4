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

    /// A room's settings: no fields yet (see `RoomSettings`); decoding ignores unknown members,
    /// so it is an object with any content.
    struct SettingsJSON: Codable {}

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

    static func settings(_ settings: RoomSettings) -> String {
        encode(SettingsJSON())
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
        _ = try decode(SettingsJSON.self, from: text, what: "room settings")
        return RoomSettings()
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
