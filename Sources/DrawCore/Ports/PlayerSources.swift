/// Where the registered users come from (the seed app's `users.json`).
public protocol UserRepository: Sendable {
    /// Loads every user. Every failure is a `DataSourceError`.
    func fetchUsers() async throws(DataSourceError) -> [User]
}

/// Where the lottery entries come from (the seed app's `usersInLottery.json`).
public protocol LotteryRepository: Sendable {
    /// Loads the lottery list, in its order. Every failure is a `DataSourceError`.
    func fetchEntries() async throws(DataSourceError) -> [LotteryEntry]
}
