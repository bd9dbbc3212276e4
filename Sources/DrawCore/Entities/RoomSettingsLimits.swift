/// The operator's bounds on what a host may choose for a room (`--max-rounds`, `--max-winners`,
/// `--min-interval-ms`, `--max-interval-ms`): checked on every `PUT .../settings`, so a host
/// cannot make a draw the operator would not run.
public struct RoomSettingsLimits: Sendable, Hashable {
    public let maxRounds: Int
    public let maxWinners: Int
    /// Shortest and longest gap between flips (`intervalMs` and `decelerateToMs`).
    public let minIntervalMs: Int
    public let maxIntervalMs: Int
    /// Longest title and prize, in Unicode code points (as JSON Schema's `maxLength` counts, so
    /// openapi.yaml states the same limit): a title is a heading on a phone and in a stream
    /// overlay, not a paragraph.
    public static let maxTitleLength = 80
    public static let maxPrizeLength = 160
    /// Longest countdown (`RoundSchedule.countdownLimit`'s upper end).
    public var maxCountdownMs: Int { RoundSchedule.countdownLimit.upperBound }

    /// - Precondition: every bound within `RoundSchedule`'s own limits (the options are checked first).
    public init(maxRounds: Int, maxWinners: Int, minIntervalMs: Int, maxIntervalMs: Int) {
        precondition(RoundSchedule.roundLimit.contains(maxRounds) && maxWinners >= 1
                     && RoundSchedule.intervalLimit.contains(minIntervalMs)
                     && RoundSchedule.intervalLimit.contains(maxIntervalMs) && minIntervalMs <= maxIntervalMs,
                     "room settings limits out of range")
        self.maxRounds = maxRounds
        self.maxWinners = maxWinners
        self.minIntervalMs = minIntervalMs
        self.maxIntervalMs = maxIntervalMs
    }

    /// The defaults: up to 100 rounds, 10 winners, gaps of 50 ms to 10 s.
    public static let standard = RoomSettingsLimits(maxRounds: 100, maxWinners: 10, minIntervalMs: 50, maxIntervalMs: 10_000)

    /// The first field of `settings` outside these limits, as a sentence naming the field, the
    /// limit and its value; `nil` when all are within.
    public func violation(in settings: RoomSettings) -> String? {
        if let r = settings.rounds, !(1...maxRounds).contains(r) {
            return "rounds must be between 1 and \(maxRounds) (--max-rounds); got \(r)."
        }
        if let w = settings.winners, !(1...maxWinners).contains(w) {
            return "winners must be between 1 and \(maxWinners) (--max-winners); got \(w)."
        }
        for (field, value) in [("intervalMs", settings.intervalMs), ("decelerateToMs", settings.decelerateToMs)] {
            if let v = value, !(minIntervalMs...maxIntervalMs).contains(v) {
                return "\(field) must be between \(minIntervalMs) and \(maxIntervalMs) ms (--min-interval-ms, --max-interval-ms); got \(v)."
            }
        }
        if let c = settings.countdownMs, !(0...maxCountdownMs).contains(c) {
            return "countdownMs must be between 0 and \(maxCountdownMs) ms; got \(c)."
        }
        for (field, value, limit) in [("title", settings.title, Self.maxTitleLength), ("prize", settings.prize, Self.maxPrizeLength)] {
            if let why = value.flatMap({ Self.textViolation($0, limit: limit) }) { return "\(field) \(why)" }
        }
        return nil
    }

    /// Why a title or prize cannot be shown as one line of text: too long, or holding control
    /// characters (a line break or an escape would change how every page lays it out).
    private static func textViolation(_ text: String, limit: Int) -> String? {
        let length = text.unicodeScalars.count
        if length > limit { return "must be at most \(limit) characters; got \(length)." }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "must be one line of text, without control characters."
        }
        return nil
    }
}
