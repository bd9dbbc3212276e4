/// How a draw ended: the last round's pick either wins or, when it is a void entry, nobody does.
public enum DrawOutcome: Sendable, Hashable {
    case winner(Player)
    case noWinner(drawn: Player)

    /// The entry drawn in the last round, whatever the outcome.
    public var drawn: Player {
        switch self {
        case .winner(let p): return p
        case .noWinner(let p): return p
        }
    }

    /// The winner rule: the drawn entry wins unless it is void.
    public init(drawn: Player) {
        self = drawn.isVoid ? .noWinner(drawn: drawn) : .winner(drawn)
    }
}
