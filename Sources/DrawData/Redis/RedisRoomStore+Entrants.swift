import DrawCore

/// A room's own entrant list and its settings in cluster mode (issue 15): in Redis with the room,
/// so whichever node runs the room's draw reads the same list. The list is a hash beside the
/// room's (`roomKey` + `:entrants`: `entrants`, `warnings`), read only when a draw starts; its
/// summary and sources are fields of the room's hash, read with the room.
extension RedisRoomStore {
    /// KEYS: room, index, list. ARGV: name, at, entrants ('' removes the list), warnings, summary,
    /// usersSource, lotterySource. One script: the list and its summary change together, or not.
    static let replaceEntrantsScript = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        if ARGV[3] == '' then
          redis.call('DEL', KEYS[3])
          redis.call('HDEL', KEYS[1], 'summary', 'usersSource', 'lotterySource')
        else
          -- HSET replaces both fields, so no DEL first: a script's first write decides whether a
          -- full Redis (maxmemory, noeviction) refuses it, and a DEL would let it through.
          redis.call('HSET', KEYS[3], 'entrants', ARGV[3], 'warnings', ARGV[4])
          redis.call('HSET', KEYS[1], 'summary', ARGV[5], 'usersSource', ARGV[6], 'lotterySource', ARGV[7])
        end
        \(touchForward)
        return 1
        """
    /// KEYS: room, index, list. ARGV: name, at, usersUrl, lotteryUrl. The URLs take the place of
    /// an uploaded list: its list and summary go, its sources are the URLs.
    static let replaceSourceURLsScript = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        redis.call('DEL', KEYS[3])
        redis.call('HDEL', KEYS[1], 'summary')
        redis.call('HSET', KEYS[1], 'usersSource', ARGV[3], 'lotterySource', ARGV[4])
        \(touchForward)
        return 1
        """
    /// KEYS: room. ARGV: settings.
    static let replaceSettingsScript = """
        if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
        redis.call('HSET', KEYS[1], 'settings', ARGV[1])
        return 1
        """

    func entrantsKey(room: String) -> String { keyspace.roomKey(room: room) + ":entrants" }

    @discardableResult
    public func replaceEntrants(ofRoom name: String, with entrants: RoomEntrants?, at: Double) throws(StorageError) -> Bool {
        let list = entrants.map { [StoredJSON.entrants($0.players), StoredJSON.warnings($0.warnings),
                                   StoredJSON.summary($0.summary), $0.sources.usersURL, $0.sources.lotteryURL] }
            ?? ["", "", "", "", ""]
        return try flag(write("replace room entrants", ["EVAL", Self.replaceEntrantsScript, "3", keyspace.roomKey(room: name),
                                                        keyspace.roomsIndexKey, entrantsKey(room: name), name, Self.text(at)] + list),
                        "replace room entrants")
    }

    /// A room's list URLs are its hash's `usersSource` and `lotterySource` without a `summary`
    /// (an uploaded list has all three).
    @discardableResult
    public func replaceSourceURLs(ofRoom name: String, with urls: DrawSources, at: Double) throws(StorageError) -> Bool {
        try flag(write("replace room list URLs", ["EVAL", Self.replaceSourceURLsScript, "3", keyspace.roomKey(room: name),
                                                  keyspace.roomsIndexKey, entrantsKey(room: name), name, Self.text(at),
                                                  urls.usersURL, urls.lotteryURL]),
                 "replace room list URLs")
    }

    public func entrants(ofRoom name: String) throws(StorageError) -> RoomEntrants? {
        let room = try read("read room entrants", ["HMGET", keyspace.roomKey(room: name), "usersSource", "lotterySource"])
        let list = try read("read room entrants", ["HMGET", entrantsKey(room: name), "entrants", "warnings"])
        guard case .array(let sources) = room, sources.count == 2, case .array(let fields) = list, fields.count == 2 else {
            throw failure(read: "read room entrants", "HMGET answered \(room), \(list)")
        }
        guard let players = fields[0].text, let warnings = fields[1].text else { return nil }
        do {
            let decoded = try StoredJSON.entrants(from: players)
            guard !decoded.isEmpty else { throw StoredJSON.Invalid(description: "an empty list") }
            return RoomEntrants(players: decoded, warnings: try StoredJSON.warnings(from: warnings),
                                sources: DrawSources(usersURL: sources[0].text ?? "", lotteryURL: sources[1].text ?? ""))
        } catch {
            throw failure(read: "read room entrants", "room \(name): \(error)")
        }
    }

    @discardableResult
    public func replaceSettings(ofRoom name: String, with settings: RoomSettings, at: Double) throws(StorageError) -> Bool {
        let done = try flag(write("replace room settings", ["EVAL", Self.replaceSettingsScript, "1", keyspace.roomKey(room: name),
                                                            StoredJSON.settings(settings)]), "replace room settings")
        if done { try touchRoom(named: name, at: at) }
        return done
    }
}
