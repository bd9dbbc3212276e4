/// What ties a redraw to the draw it redraws (`docs/FAIRNESS.md` §5b): a winner was removed (a
/// no-show) and a replacement is drawn, as a new draw of its own, among the entrants of `drawId`
/// that no slot of it drew.
///
/// The rule a verifier checks: the redraw's entrants are exactly the entrants of `drawId`, in
/// their order, without every entry drawn for its slots (void or not); so neither a winner nor
/// the removed entrant can be drawn again. The redraw has its own seed, commitment and entrants
/// hash and one winner, and verifies like any draw.
public struct RedrawLink: Sendable, Hashable {
    /// The draw redrawn: the room's draw the removed winner was standing in (the first draw, or
    /// the last redraw of it).
    public let drawId: String
    /// The winner removed.
    public let removed: Player
    /// The winners still standing besides the replacement, in their order (for display: the
    /// redraw's result together with these is the room's list of winners now).
    public let kept: [Player]
    /// Which redraw of the giveaway this is: 1 for a redraw of the first draw, 2 for a redraw of
    /// that redraw, and so on (issue 37: shown everywhere, and limited by the operator, so that a
    /// host cannot redraw "no-shows" unseen and without end until the right person wins). `nil`
    /// in a record written before redraws were numbered.
    public let number: Int?

    public init(drawId: String, removed: Player, kept: [Player], number: Int?) {
        self.drawId = drawId
        self.removed = removed
        self.kept = kept
        self.number = number
    }

    /// `number`, or 1 for a link from before redraws were numbered (for counting and display).
    public var ordinal: Int { max(1, number ?? 1) }
}

/// Why a redraw cannot be made.
public enum RedrawRefusal: Error, Sendable, Hashable {
    /// The draw is not the room's last finished draw (still running, stopped, failed, older, or
    /// another room's).
    case notFinished
    /// The entrant named is not one of the draw's winners standing.
    case notAWinner(userId: Int)
    /// Every entrant of the draw was drawn: there is nobody left to draw from.
    case nobodyLeft
    /// The giveaway was redrawn `max` times already, the most the server allows (`--max-redraws`;
    /// 0: redraws are off).
    case limitReached(max: Int)

    /// A stable machine-readable code for the host's answer.
    public var code: String {
        switch self {
        case .notFinished: return "not_redrawable"
        case .notAWinner: return "not_a_winner"
        case .nobodyLeft: return "nobody_left"
        case .limitReached: return "redraw_limit"
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .notFinished: return "Only a winner of this room's last finished draw can be redrawn."
        case .notAWinner(let id): return "Entrant \(id) is not one of this draw's winners."
        case .nobodyLeft: return "Everyone in this draw was drawn already: nobody is left to draw a replacement from."
        case .limitReached(let max) where max <= 0: return "Redraws are switched off on this server."
        case .limitReached(let max):
            return "This giveaway was redrawn \(max) time\(max == 1 ? "" : "s") already, the most this server allows."
        }
    }
}

extension RedrawLink {
    /// The winners standing after the draw of `plan`: the ones it kept when it is itself a
    /// redraw, then its own winners (slot order).
    public static func standingWinners(of plan: DrawPlan) -> [Player] {
        (plan.redrawOf?.kept ?? []) + plan.winningPlayers
    }

    /// The entrants a redraw of a draw draws from: its entrants, in order, without every entry
    /// drawn for its slots (`slots`: their entrant indices).
    public static func remainingEntrants(_ entrants: [Player], slots: [Int]) -> [Player] {
        let drawn = Set(slots)
        return entrants.enumerated().filter { !drawn.contains($0.offset) }.map(\.element)
    }

    /// Decides a redraw of the finished draw `plan` removing its standing winner `userId`: the
    /// link and the players to draw from, or why not. The caller passes the room's last result:
    /// a redraw always follows on from the latest draw, so winners and replacements so far are
    /// all out of the list.
    ///
    /// `limit`: the most redraws a giveaway may have (`number` of the last); `nil`: no limit.
    public static func make(redrawing plan: DrawPlan, removing userId: Int, limit: Int? = nil)
        -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        make(drawId: plan.drawId, entrants: plan.entrants, picks: plan.winnerPicks, redrawOf: plan.redrawOf,
             removing: userId, limit: limit)
    }

    /// The same decision from the finished draw's record, as any node of a cluster reads it from
    /// the shared history (the draw may have run on another node, which alone holds its plan).
    public static func make(redrawing record: DrawRecord, removing userId: Int, limit: Int? = nil)
        -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        guard record.status == .finished, !record.winnerPicks.isEmpty else { return .failure(.notFinished) }
        return make(drawId: record.drawId, entrants: record.entrants, picks: record.winnerPicks,
                    redrawOf: record.redrawOf, removing: userId, limit: limit)
    }

    private static func make(drawId: String, entrants: [Player], picks: [WinnerPick], redrawOf: RedrawLink?,
                             removing userId: Int, limit: Int?) -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        // The number may come from a record another node wrote: counted without wrapping.
        let (number, overflow) = (redrawOf?.ordinal ?? 0).addingReportingOverflow(1)
        if let limit, overflow || number > limit { return .failure(.limitReached(max: max(0, limit))) }
        let standing = (redrawOf?.kept ?? []) + picks.filter(\.isWinner).map(\.player)
        guard let removed = standing.first(where: { $0.userId == userId }) else {
            return .failure(.notAWinner(userId: userId))
        }
        let remaining = remainingEntrants(entrants, slots: picks.map(\.pickIndex))
        guard !remaining.isEmpty else { return .failure(.nobodyLeft) }
        let link = RedrawLink(drawId: drawId, removed: removed, kept: standing.filter { $0 != removed },
                              number: overflow ? Int.max : number)
        return .success((link, MergeResult(players: remaining, warnings: [])))
    }

    /// Whether a redraw's `number` follows the draw it redraws (`base`: that draw's own link, `nil`
    /// for the giveaway's first draw): 1 after the first draw, one more than a numbered redraw,
    /// at least 2 after a redraw from before the numbering. A redraw without a number (from before
    /// it) is not checked.
    public static func numberFollows(_ number: Int?, base: RedrawLink?) -> Bool {
        guard let number else { return true }
        guard let base else { return number == 1 }
        guard let previous = base.number else { return number >= 2 }
        return previous < Int.max && number == previous + 1
    }

    /// Whether `record` (a redraw) holds exactly the entrants §5b gives for the finished draw
    /// `base` it names, without the removed entrant.
    public static func entrantsMatch(redraw record: DrawRecord, base: DrawRecord) -> Bool {
        guard let link = record.redrawOf, link.drawId == base.drawId, base.status == .finished,
              numberFollows(link.number, base: base.redrawOf) else { return false }
        let expected = remainingEntrants(base.entrants, slots: base.winnerPicks.map(\.pickIndex))
        return record.entrants == expected && !record.entrants.contains(link.removed)
    }
}
