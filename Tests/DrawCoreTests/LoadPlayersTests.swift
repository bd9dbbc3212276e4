import DrawCore
import Testing

/// In-memory repositories: the use case's contract is about merging and concurrency, not I/O
/// (the libcurl repositories have their own tests against a real HTTP server).
private struct ListUsers: UserRepository {
    let result: Result<[User], DataSourceError>
    var gate: Gate? = nil
    func fetchUsers() async throws(DataSourceError) -> [User] {
        if let gate { await gate.arriveAndWait() }
        return try result.get()
    }
}

private struct ListEntries: LotteryRepository {
    let result: Result<[LotteryEntry], DataSourceError>
    var gate: Gate? = nil
    func fetchEntries() async throws(DataSourceError) -> [LotteryEntry] {
        if let gate { await gate.arriveAndWait() }
        return try result.get()
    }
}

/// A two-party rendezvous: each fetch waits until the other has started. If the use case
/// fetched one list after the other, the first fetch would wait forever (the test times out).
private actor Gate {
    private var arrived = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func arriveAndWait() async {
        arrived += 1
        if arrived == 2 {
            waiters.forEach { $0.resume() }
            waiters.removeAll()
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }
}

struct LoadPlayersTests {
    @Test(.timeLimit(.minutes(1)))
    func fetchesBothListsConcurrentlyAndMerges() async throws {
        let gate = Gate()
        let uc = LoadPlayers(users: ListUsers(result: .success(Fixtures.users), gate: gate),
                             lottery: ListEntries(result: .success(Fixtures.entries), gate: gate))
        let merged = try await uc.execute()
        #expect(merged.players.map(\.userId) == [10, 22, 4, 182])
    }

    @Test func sourceFailureBecomesDrawError() async {
        let err = DataSourceError.badStatus(source: "http://x/users.json", status: 500)
        let uc = LoadPlayers(users: ListUsers(result: .failure(err)), lottery: ListEntries(result: .success(Fixtures.entries)))
        await #expect(throws: DrawError.source(err)) { try await uc.execute() }
    }

    @Test func lotteryFailureBecomesDrawError() async {
        let err = DataSourceError.unreachable(source: "http://x/lottery.json", reason: "connection refused")
        let uc = LoadPlayers(users: ListUsers(result: .success(Fixtures.users)), lottery: ListEntries(result: .failure(err)))
        await #expect(throws: DrawError.source(err)) { try await uc.execute() }
    }

    @Test func noPlayersIsAnError() async {
        let uc = LoadPlayers(users: ListUsers(result: .success(Fixtures.users)),
                             lottery: ListEntries(result: .success([LotteryEntry(userId: 77, isVoid: false)])))
        await #expect(throws: DrawError.noPlayers(warnings: [.unknownUser(userId: 77)])) { try await uc.execute() }
    }
}
