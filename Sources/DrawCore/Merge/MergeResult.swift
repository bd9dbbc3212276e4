/// The players of a draw, in lottery-list order, plus what the merge had to work around.
public struct MergeResult: Sendable, Hashable {
    /// Never empty: an empty merge is `DrawError.noPlayers` instead.
    public let players: [Player]
    public let warnings: [MergeWarning]

    public init(players: [Player], warnings: [MergeWarning]) {
        self.players = players
        self.warnings = warnings
    }
}
