/// Where in an uploaded list a bad name is.
public enum EntrantListPosition: Sendable, Hashable {
    /// Line `n` (1-based, blank lines counted) of a plain-text list.
    case line(Int)
    /// The name of user `id` of the JSON users list.
    case userName(userId: Int)
    /// The username of user `id` of the JSON users list.
    case username(userId: Int)

    /// Which field: `name` or `username`.
    public var field: String {
        if case .username = self { return "username" }
        return "name"
    }

    /// Where it is, as the end of a sentence ("on line 12", "of user 182").
    public var place: String {
        switch self {
        case .line(let n): return "on line \(n)"
        case .userName(let id), .username(let id): return "of user \(id)"
        }
    }
}
