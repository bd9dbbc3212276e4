/// Why no draw could be planned.
public enum DrawError: Error, Sendable, Hashable {
    /// After merging, nobody is left to draw from. The merge warnings usually say why.
    case noPlayers(warnings: [MergeWarning])
    /// One of the two player lists could not be loaded.
    case source(DataSourceError)

    /// A stable machine-readable code, sent in `failed` messages.
    public var code: String {
        switch self {
        case .noPlayers: return "no_players"
        case .source(let e): return e.code
        }
    }

    /// One sentence for the host.
    public var message: String {
        switch self {
        case .noPlayers(let warnings):
            let why = warnings.isEmpty ? "" : " (\(warnings.count) merge warning\(warnings.count == 1 ? "" : "s"))"
            return "No players are left after merging the user list with the lottery list\(why)."
        case .source(let e): return e.message
        }
    }

    /// Warnings gathered before the failure, for the record and the host.
    public var warnings: [MergeWarning] {
        if case .noPlayers(let w) = self { return w }
        return []
    }
}
