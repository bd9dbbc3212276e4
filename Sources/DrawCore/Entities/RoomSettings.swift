/// What a room's host chose for its draws (`PUT /api/rooms/ROOM/settings`), kept with the room so
/// a restart does not change how the room behaves.
///
/// Every field is optional: `nil` means the operator's value (the server's schedule, one
/// winner), so a room that never chose anything follows the operator's options as they are at
/// each draw. The store keeps the settings as a JSON object, so a field added later needs no
/// schema step, but it must be optional: rooms stored before it lack it.
public struct RoomSettings: Sendable, Hashable {
    /// Flip rounds per draw.
    public var rounds: Int?
    /// Milliseconds between two flips (the first gap when `decelerateToMs` is set).
    public var intervalMs: Int?
    /// The last gap: the gaps grow linearly from `intervalMs` to this (`RoundSchedule.Pace`).
    public var decelerateToMs: Int?
    /// Winner slots per draw (k, `docs/FAIRNESS.md` §5).
    public var winners: Int?
    /// The countdown before round 1.
    public var countdownMs: Int?
    /// The giveaway's title as the host typed it ("Spring Giveaway"): the room's name is only its
    /// slug, and people recognise the title, so pages, the overlay and the result page show it.
    public var title: String?
    /// What the winners get ("A signed copy of the book"), shown with the title.
    public var prize: String?

    public init(rounds: Int? = nil, intervalMs: Int? = nil, decelerateToMs: Int? = nil, winners: Int? = nil,
                countdownMs: Int? = nil, title: String? = nil, prize: String? = nil) {
        self.rounds = rounds
        self.intervalMs = intervalMs
        self.decelerateToMs = decelerateToMs
        self.winners = winners
        self.countdownMs = countdownMs
        self.title = title
        self.prize = prize
    }

    /// The schedule of the room's next draw: the operator's `defaults`, with what the room chose
    /// in their place. `nil` when the mix is not a valid schedule (the settings were checked
    /// against the limits, so only a stored value edited by hand gets here).
    public func schedule(defaults: RoundSchedule) -> RoundSchedule? {
        let pace: RoundSchedule.Pace
        if intervalMs == nil, decelerateToMs == nil {
            pace = defaults.pace
        } else {
            let first = intervalMs ?? defaults.gapMs(after: 1)
            pace = decelerateToMs.map { .decelerating(firstMs: first, lastMs: $0) } ?? .fixed(intervalMs: first)
        }
        return RoundSchedule(rounds: rounds ?? defaults.rounds, pace: pace,
                             countdownMs: countdownMs ?? defaults.countdownMs)
    }

    /// The winner count of the room's next draw.
    public var winnerCount: Int { winners ?? 1 }
}
