import DrawCore

/// What a room shows about its next draw before it starts (issue 15), in its snapshot and in the
/// answers to the host's changes: the settings in effect, and the room's own list summed up.
public struct RoomInfo: Sendable {
    public let settings: RoomSettings
    /// The schedule the room's next draw follows (`RoomSettings.schedule(defaults:)`).
    public let schedule: RoundSchedule
    /// `nil`: the room draws from the operator's lists.
    public let entrants: RoomEntrantsSummary?
    /// The draw the host scheduled (issue 30), whose commitment is public from its scheduling;
    /// `nil`: none.
    public let scheduled: ScheduledDrawCommitment?

    public init(settings: RoomSettings, schedule: RoundSchedule, entrants: RoomEntrantsSummary?,
                scheduled: ScheduledDrawCommitment? = nil) {
        self.settings = settings
        self.schedule = schedule
        self.entrants = entrants
        self.scheduled = scheduled
    }

    /// The snapshot's members (see `RoomInfoJSON.writeFields`), then `scheduled`: the scheduled
    /// draw's commitment (`ScheduledDrawJSON`) or `null`.
    public func write(into w: inout JSONWriter) {
        RoomInfoJSON.writeFields(settings: settings, schedule: schedule, entrants: entrants, into: &w)
        w.key("scheduled")
        if let scheduled { ScheduledDrawJSON.write(scheduled, into: &w) } else { w.null() }
    }
}

/// How `RoomInfo` is written.
public enum RoomInfoJSON {
    /// The snapshot's members, written into an open object: `settings` (every value in effect,
    /// the operator's where the room chose none; `decelerateToMs` `null` for an even pace),
    /// `entrants` (the count, `null` when the room draws from the operator's lists, which are
    /// only fetched when a draw starts), `warnings` (`[{"code","count"}]` of the merge) and
    /// `allVoid` (every entry is void: no winner is possible; the draw may still run).
    public static func writeFields(settings: RoomSettings, schedule: RoundSchedule, entrants: RoomEntrantsSummary?,
                                   into w: inout JSONWriter) {
        w.key("settings"); writeSettings(settings, schedule: schedule, into: &w)
        w.key("entrants")
        if let entrants { w.int(entrants.count) } else { w.null() }
        w.key("warnings")
        w.beginArray()
        for c in entrants?.warningCounts ?? [] {
            w.beginObject(); w.field("code", c.code); w.field("count", c.count); w.endObject()
        }
        w.endArray()
        w.field("allVoid", entrants?.allVoid ?? false)
    }

    /// `{"rounds","intervalMs","decelerateToMs","winners","countdownMs","title","prize"}` in
    /// effect: `schedule` is the one the room's next draw follows (`RoomSettings.schedule(defaults:)`);
    /// `title` and `prize` are `null` when the host set none.
    public static func writeSettings(_ settings: RoomSettings, schedule: RoundSchedule, into w: inout JSONWriter) {
        w.beginObject()
        w.field("rounds", schedule.rounds)
        w.field("intervalMs", schedule.gapMs(after: 1))
        w.key("decelerateToMs")
        if case .decelerating(_, let last) = schedule.pace { w.int(last) } else { w.null() }
        w.field("winners", settings.winnerCount)
        w.field("countdownMs", schedule.countdownMs)
        w.field("title", orNull: settings.title)
        w.field("prize", orNull: settings.prize)
        w.endObject()
    }
}
