/// Something odd in the two source lists that the merge survived, kept as data so that it can go
/// into the draw's record and to the host (not just into a log line).
public enum MergeWarning: Sendable, Hashable {
    /// A lottery entry names a user id that the user list does not have; the entry is left out.
    case unknownUser(userId: Int)
    /// The lottery list names the same user more than once; only the first entry counts.
    case duplicateEntry(userId: Int)
    /// The user list has the same id more than once; the first user wins.
    case duplicateUser(userId: Int)
    /// A plain-text list has the same name on two lines (`userId` is the later entrant's id,
    /// `firstUserId` the first one's). Both are entered: two people may share a name, so only the
    /// host can tell a typo from a namesake.
    case duplicateName(userId: Int, firstUserId: Int)

    /// A stable machine-readable code.
    public var code: String {
        switch self {
        case .unknownUser: return "unknown_user"
        case .duplicateEntry: return "duplicate_entry"
        case .duplicateUser: return "duplicate_user"
        case .duplicateName: return "duplicate_name"
        }
    }

    /// The user id the warning is about.
    public var userId: Int {
        switch self {
        case .unknownUser(let id), .duplicateEntry(let id), .duplicateUser(let id): return id
        case .duplicateName(let id, _): return id
        }
    }

    /// A sentence a host can act on.
    public var message: String {
        switch self {
        case .unknownUser(let id):
            return "Lottery entry for user \(id) was left out: the user list has no user \(id)."
        case .duplicateEntry(let id):
            return "User \(id) is in the lottery list more than once; entered once only."
        case .duplicateUser(let id):
            return "User id \(id) appears more than once in the user list; the first one was used."
        case .duplicateName(let id, let first):
            return "Entrant \(id) has the same name as entrant \(first); both are entered."
        }
    }
}
