/// A user who is in the draw: the merge of a `User` and their `LotteryEntry`.
public struct Player: Sendable, Hashable {
    public let userId: Int
    public let name: String
    public let username: String
    public let regDate: CalendarDate
    public let isVoid: Bool

    public init(userId: Int, name: String, username: String, regDate: CalendarDate, isVoid: Bool) {
        self.userId = userId
        self.name = name
        self.username = username
        self.regDate = regDate
        self.isVoid = isVoid
    }

    /// Joins a user with their entry; the caller has already matched the ids.
    public init(user: User, entry: LotteryEntry) {
        self.init(userId: user.userId, name: user.name, username: user.username,
                  regDate: user.regDate, isVoid: entry.isVoid)
    }
}
