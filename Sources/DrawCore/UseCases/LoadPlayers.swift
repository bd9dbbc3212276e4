/// Use case: fetch both lists at the same time and merge them into players.
public struct LoadPlayers: Sendable {
    private let users: any UserRepository
    private let lottery: any LotteryRepository

    public init(users: any UserRepository, lottery: any LotteryRepository) {
        self.users = users
        self.lottery = lottery
    }

    /// Fetches the two lists concurrently (a draw should wait for the slower one, not the sum),
    /// then merges. The users list's failure is reported first when both fail, so the error a
    /// host sees is stable.
    public func execute() async throws(DrawError) -> MergeResult {
        async let usersResult = Self.capture { () async throws(DataSourceError) in try await users.fetchUsers() }
        async let entriesResult = Self.capture { () async throws(DataSourceError) in try await lottery.fetchEntries() }
        let (u, e) = await (usersResult, entriesResult)
        let userList: [User], entryList: [LotteryEntry]
        switch u {
        case .success(let v): userList = v
        case .failure(let err): throw .source(err)
        }
        switch e {
        case .success(let v): entryList = v
        case .failure(let err): throw .source(err)
        }
        return try PlayerMerger.merge(users: userList, entries: entryList)
    }

    /// Turns a typed-throwing call into a `Result`, so both `async let`s can be awaited together.
    private static func capture<T: Sendable>(
        _ body: @Sendable () async throws(DataSourceError) -> T
    ) async -> Result<T, DataSourceError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
