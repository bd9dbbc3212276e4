import DrawCore
import Foundation

/// A scheduled draw as one JSON text (issue 30), for stores that keep it whole (Redis); the
/// SQLite store keeps the same parts in columns (`scheduled_draws`).
extension StoredJSON {
    struct ScheduledJSON: Codable {
        let drawId: String
        let room: String
        let at: Double
        let createdAt: Double
        let seed: String
        /// The parts as the SQLite columns hold them, each a JSON text of its own.
        let entrants: String
        let warnings: String
        let schedule: String
        let winners: Int
        let reveal: String
        let usersUrl: String
        let lotteryUrl: String
        /// The beacon round committed to, as `beacon(_:)` writes it; absent for a seed-only draw.
        let beacon: String?
    }

    static func scheduled(_ d: ScheduledDraw) -> String {
        let json = ScheduledJSON(drawId: d.drawId, room: d.room, at: d.at, createdAt: d.createdAt, seed: d.seed.hex,
                                 entrants: entrants(d.entrants), warnings: warnings(d.warnings), schedule: schedule(d.schedule),
                                 winners: d.winners, reveal: d.reveal.rawValue, usersUrl: d.sources.usersURL,
                                 lotteryUrl: d.sources.lotteryURL, beacon: d.beacon.map(beacon(_:)))
        guard let data = try? JSONEncoder().encode(json) else { preconditionFailure("unencodable scheduled draw") }
        return String(decoding: data, as: UTF8.self)
    }

    static func scheduled(from text: String) throws(Invalid) -> ScheduledDraw {
        let j: ScheduledJSON
        do { j = try JSONDecoder().decode(ScheduledJSON.self, from: Data(text.utf8)) } catch {
            throw Invalid(description: "stored scheduled draw JSON does not have the expected shape")
        }
        return try scheduled(drawId: j.drawId, room: j.room, at: j.at, createdAt: j.createdAt, seedHex: j.seed,
                             entrantsJSON: j.entrants, warningsJSON: j.warnings, scheduleJSON: j.schedule,
                             winners: j.winners, reveal: j.reveal, sources: DrawSources(usersURL: j.usersUrl, lotteryURL: j.lotteryUrl),
                             beaconJSON: j.beacon)
    }

    /// A scheduled draw from its stored parts, checked as a new one would be (a seed of 32 bytes,
    /// a known reveal, 1 ≤ winners ≤ entrants, times within `EpochMillis`), so a damaged row is
    /// an error, never a trap.
    static func scheduled(drawId: String, room: String, at: Double, createdAt: Double, seedHex: String?,
                          entrantsJSON: String, warningsJSON: String, scheduleJSON: String, winners: Int,
                          reveal: String?, sources: DrawSources, beaconJSON: String? = nil) throws(Invalid) -> ScheduledDraw {
        guard let seed = seedHex.flatMap(Seed.init(hex:)), let mode = reveal.flatMap(WinnerRevealMode.init(rawValue:)),
              EpochMillis.isInRange(at), EpochMillis.isInRange(createdAt) else {
            throw Invalid(description: "scheduled draw \(drawId) has no valid seed, reveal or time")
        }
        let players = try entrants(from: entrantsJSON)
        guard !players.isEmpty, DrawPlan.isValidWinnerCount(winners, entrants: players.count) else {
            throw Invalid(description: "scheduled draw \(drawId) has \(players.count) entrants for \(winners) winners")
        }
        return ScheduledDraw(drawId: drawId, room: room, at: at, createdAt: createdAt, seed: seed, entrants: players,
                             warnings: try warnings(from: warningsJSON), schedule: try schedule(from: scheduleJSON),
                             winners: winners, reveal: mode, sources: sources,
                             beacon: try beaconJSON.map { text throws(Invalid) in try beacon(from: text) })
    }
}
