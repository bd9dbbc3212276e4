import DrawCore

extension DrawOutcome {
    /// The outcome's name on the wire (`finished.outcome`) and in metrics labels: `winner`, or
    /// `void` when the drawn entry was void. Defined once so the two can never disagree.
    public var wireName: String {
        switch self {
        case .winner: return "winner"
        case .noWinner: return "void"
        }
    }
}
