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

    public init(drawId: String, removed: Player, kept: [Player]) {
        self.drawId = drawId
        self.removed = removed
        self.kept = kept
    }
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

    /// A stable machine-readable code for the host's answer.
    public var code: String {
        switch self {
        case .notFinished: return "not_redrawable"
        case .notAWinner: return "not_a_winner"
        case .nobodyLeft: return "nobody_left"
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .notFinished: return "Only a winner of this room's last finished draw can be redrawn."
        case .notAWinner(let id): return "Entrant \(id) is not one of this draw's winners."
        case .nobodyLeft: return "Everyone in this draw was drawn already: nobody is left to draw a replacement from."
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
    public static func make(redrawing plan: DrawPlan, removing userId: Int)
        -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        make(drawId: plan.drawId, entrants: plan.entrants, picks: plan.winnerPicks, redrawOf: plan.redrawOf,
             removing: userId)
    }

    /// The same decision from the finished draw's record, as any node of a cluster reads it from
    /// the shared history (the draw may have run on another node, which alone holds its plan).
    public static func make(redrawing record: DrawRecord, removing userId: Int)
        -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        guard record.status == .finished, !record.winnerPicks.isEmpty else { return .failure(.notFinished) }
        return make(drawId: record.drawId, entrants: record.entrants, picks: record.winnerPicks,
                    redrawOf: record.redrawOf, removing: userId)
    }

    private static func make(drawId: String, entrants: [Player], picks: [WinnerPick], redrawOf: RedrawLink?,
                             removing userId: Int) -> Result<(link: RedrawLink, players: MergeResult), RedrawRefusal> {
        let standing = (redrawOf?.kept ?? []) + picks.filter(\.isWinner).map(\.player)
        guard let removed = standing.first(where: { $0.userId == userId }) else {
            return .failure(.notAWinner(userId: userId))
        }
        let remaining = remainingEntrants(entrants, slots: picks.map(\.pickIndex))
        guard !remaining.isEmpty else { return .failure(.nobodyLeft) }
        let link = RedrawLink(drawId: drawId, removed: removed, kept: standing.filter { $0 != removed })
        return .success((link, MergeResult(players: remaining, warnings: [])))
    }

    /// Whether `record` (a redraw) holds exactly the entrants §5b gives for the finished draw
    /// `base` it names, without the removed entrant.
    public static func entrantsMatch(redraw record: DrawRecord, base: DrawRecord) -> Bool {
        guard let link = record.redrawOf, link.drawId == base.drawId, base.status == .finished else { return false }
        let expected = remainingEntrants(base.entrants, slots: base.winnerPicks.map(\.pickIndex))
        return record.entrants == expected && !record.entrants.contains(link.removed)
    }
}
