import DrawCore

extension APIMessages {
    /// `200` body of `PUT /api/rooms/ROOM/entrants`: the list as kept, its count and every merge
    /// warning (as in `started`).
    public static func entrantsReplaced(room: String, entrants: RoomEntrants) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + entrants.warnings.count * 96)
        w.beginObject()
        w.field("room", room)
        w.field("entrants", entrants.players.count)
        w.key("warnings"); WireMessages.writeWarnings(entrants.warnings, into: &w)
        w.field("allVoid", entrants.players.allSatisfy(\.isVoid))
        w.endObject()
        return w.bytes
    }

    /// `200` body of `GET /api/rooms/ROOM/entrants`: the room's own list in list order, each entry
    /// as in a draw's entrants (FAIRNESS.md §3's canonical JSON), and its merge warnings; `null`
    /// entrants (and no warnings) when the room draws from the operator's lists or list URLs.
    public static func roomEntrants(room: String, entrants: RoomEntrants?) -> [UInt8] {
        let players = entrants.map { EntrantsEncoding.canonicalJSON($0.players) }
        var w = JSONWriter(capacity: 96 + (players?.count ?? 0) + (entrants?.warnings.count ?? 0) * 96)
        w.beginObject()
        w.field("room", room)
        w.key("entrants")
        if let players { w.raw(players) } else { w.null() }
        w.key("warnings"); WireMessages.writeWarnings(entrants?.warnings ?? [], into: &w)
        w.endObject()
        return w.bytes
    }

    /// `200` body of `PUT /api/rooms/ROOM/settings`: the settings now in effect.
    public static func settingsReplaced(room: String, settings: RoomSettings, schedule: RoundSchedule) -> [UInt8] {
        var w = JSONWriter(capacity: 200)
        w.beginObject()
        w.field("room", room)
        w.key("settings"); RoomInfoJSON.writeSettings(settings, schedule: schedule, into: &w)
        w.endObject()
        return w.bytes
    }
}

extension APIMessages {
    /// `200` body of `PUT /api/rooms/ROOM/entrants` with list URLs: the URLs as kept (fetched
    /// when each draw starts, so no count yet).
    public static func entrantSourcesReplaced(room: String, sources: DrawSources) -> [UInt8] {
        var w = JSONWriter(capacity: 96 + sources.usersURL.utf8.count + sources.lotteryURL.utf8.count)
        w.beginObject()
        w.field("room", room)
        w.field("usersUrl", sources.usersURL)
        w.field("lotteryUrl", sources.lotteryURL)
        w.endObject()
        return w.bytes
    }
}
