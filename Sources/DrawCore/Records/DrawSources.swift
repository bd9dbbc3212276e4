/// The two player lists a draw was loaded from, as the operator configured them.
///
/// Kept in the record so that an auditor knows where the entrants came from, not only who they were.
public struct DrawSources: Sendable, Hashable {
    /// The user list (the seed app's `users.json`).
    public let usersURL: String
    /// The lottery list (the seed app's `usersInLottery.json`).
    public let lotteryURL: String

    public init(usersURL: String, lotteryURL: String) {
        self.usersURL = usersURL
        self.lotteryURL = lotteryURL
    }
}
