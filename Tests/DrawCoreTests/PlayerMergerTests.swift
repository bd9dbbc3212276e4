import DrawCore
import Testing

struct PlayerMergerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let users: [User]
        let entries: [(Int, Bool)]
        let expectedIds: [Int]?          // nil: expect noPlayers
        let expectedWarnings: [MergeWarning]
        var testDescription: String { name }
    }

    static let u = Fixtures.self
    static let cases: [Case] = [
        Case(name: "seed data: lottery order kept, non-entrants ignored",
             users: u.users, entries: [(10, false), (22, false), (4, false), (182, true)],
             expectedIds: [10, 22, 4, 182], expectedWarnings: []),
        Case(name: "order follows the lottery list, not the user list",
             users: u.users, entries: [(182, false), (4, false), (10, false)],
             expectedIds: [182, 4, 10], expectedWarnings: []),
        Case(name: "entry without a user is left out with a warning",
             users: u.users, entries: [(10, false), (999, false), (22, false)],
             expectedIds: [10, 22], expectedWarnings: [.unknownUser(userId: 999)]),
        Case(name: "duplicate entry is entered once with one warning",
             users: u.users, entries: [(10, false), (22, false), (10, true), (10, false)],
             expectedIds: [10, 22], expectedWarnings: [.duplicateEntry(userId: 10)]),
        Case(name: "duplicate user: first wins, warned once",
             users: [u.jack, User(userId: 10, name: "Impostor", username: "x", regDate: u.date("2021-01-01")), u.jack],
             entries: [(10, false)],
             expectedIds: [10], expectedWarnings: [.duplicateUser(userId: 10)]),
        Case(name: "users not in the lottery take no part",
             users: u.users, entries: [(18, false)],
             expectedIds: [18], expectedWarnings: []),
        Case(name: "all void is a valid draw",
             users: u.users, entries: [(10, true), (22, true)],
             expectedIds: [10, 22], expectedWarnings: []),
        Case(name: "empty lottery list is noPlayers",
             users: u.users, entries: [], expectedIds: nil, expectedWarnings: []),
        Case(name: "only unknown entries is noPlayers with the warnings",
             users: u.users, entries: [(1, false), (2, false)],
             expectedIds: nil, expectedWarnings: [.unknownUser(userId: 1), .unknownUser(userId: 2)]),
        Case(name: "empty user list is noPlayers",
             users: [], entries: [(10, false)], expectedIds: nil, expectedWarnings: [.unknownUser(userId: 10)]),
    ]

    @Test(arguments: cases)
    func mergeRule(_ c: Case) {
        let entries = c.entries.map { LotteryEntry(userId: $0.0, isVoid: $0.1) }
        do {
            let result = try PlayerMerger.merge(users: c.users, entries: entries)
            #expect(result.players.map(\.userId) == c.expectedIds)
            #expect(result.warnings == c.expectedWarnings)
        } catch {
            #expect(c.expectedIds == nil, "unexpected failure: \(error)")
            #expect(error == .noPlayers(warnings: c.expectedWarnings))
        }
    }

    @Test func playerCarriesUserFieldsAndVoidFlag() throws {
        let r = try PlayerMerger.merge(users: Fixtures.users, entries: [LotteryEntry(userId: 182, isVoid: true)])
        #expect(r.players == [Player(userId: 182, name: "Mohsen", username: "AghaMohsen",
                                     regDate: Fixtures.date("2020-04-12"), isVoid: true)])
    }

    @Test func duplicateEntryKeepsFirstVoidFlag() throws {
        let r = try PlayerMerger.merge(users: Fixtures.users,
                                       entries: [LotteryEntry(userId: 10, isVoid: true), LotteryEntry(userId: 10, isVoid: false)])
        #expect(r.players.map(\.isVoid) == [true])
    }

    @Test func warningsHaveCodesAndMessages() {
        #expect(MergeWarning.unknownUser(userId: 7).code == "unknown_user")
        #expect(MergeWarning.duplicateEntry(userId: 7).message.contains("7"))
        #expect(DrawError.noPlayers(warnings: []).code == "no_players")
    }
}
