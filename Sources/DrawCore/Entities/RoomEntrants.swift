/// A room's own entrant list (issue 15): uploaded by its host, kept with the room, and drawn from
/// instead of the operator's lists until the host removes it.
///
/// Kept already merged (the players and the merge's warnings), so a draw starts from exactly what
/// the host was shown when the upload was answered.
public struct RoomEntrants: Sendable, Hashable {
    /// The players, in list order; never empty (an upload without entrants is refused).
    public let players: [Player]
    /// What the merge worked around, for the host and the draw's record.
    public let warnings: [MergeWarning]
    /// Where the list came from, for the draw's record (`EntrantsOrigin`).
    public let sources: DrawSources

    public init(players: [Player], warnings: [MergeWarning], sources: DrawSources) {
        precondition(!players.isEmpty, "a room's list has at least one entrant")
        self.players = players
        self.warnings = warnings
        self.sources = sources
    }

    /// The list as a merge's result, what a draw is planned from.
    public var merge: MergeResult { MergeResult(players: players, warnings: warnings) }

    /// What a room's snapshot shows of the list.
    public var summary: RoomEntrantsSummary {
        RoomEntrantsSummary(count: players.count, warningCounts: WarningCount.counts(of: warnings),
                            allVoid: players.allSatisfy(\.isVoid), sources: sources)
    }
}

/// What a room shows of its own list before a draw: how many, what the merge warned about, and
/// whether any entry can win. Small, so it travels with the room's record.
public struct RoomEntrantsSummary: Sendable, Hashable {
    public let count: Int
    /// One count per warning code, in the order the codes first appeared.
    public let warningCounts: [WarningCount]
    /// Every entry is void: a draw among them cannot have a winner (it may still run).
    public let allVoid: Bool
    public let sources: DrawSources

    public init(count: Int, warningCounts: [WarningCount], allVoid: Bool, sources: DrawSources) {
        self.count = count
        self.warningCounts = warningCounts
        self.allVoid = allVoid
        self.sources = sources
    }
}

/// How many merge warnings of one code a list had.
public struct WarningCount: Sendable, Hashable {
    public let code: String
    public let count: Int

    public init(code: String, count: Int) {
        self.code = code
        self.count = count
    }

    /// The counts of `warnings`, one per code, in first-appearance order.
    public static func counts(of warnings: [MergeWarning]) -> [WarningCount] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for w in warnings {
            if counts[w.code] == nil { order.append(w.code) }
            counts[w.code, default: 0] += 1
        }
        return order.map { WarningCount(code: $0, count: counts[$0] ?? 0) }
    }
}

/// The `DrawSources` a room's own list is recorded with: not URLs, but what the host sent.
public enum EntrantsOrigin {
    /// A plain-text upload: both sources say so.
    public static let plainText = DrawSources(usersURL: "upload:text/plain", lotteryURL: "upload:text/plain")
    /// An upload of the two JSON lists.
    public static let jsonLists = DrawSources(usersURL: "upload:users.json", lotteryURL: "upload:usersInLottery.json")
}
