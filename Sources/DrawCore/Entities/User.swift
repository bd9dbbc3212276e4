/// A registered user, as the users endpoint lists them.
public struct User: Sendable, Hashable {
    public let userId: Int
    public let name: String
    public let username: String
    public let regDate: CalendarDate

    public init(userId: Int, name: String, username: String, regDate: CalendarDate) {
        self.userId = userId
        self.name = name
        self.username = username
        self.regDate = regDate
    }
}
