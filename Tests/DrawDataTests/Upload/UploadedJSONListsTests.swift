import DrawCore
import DrawData
import Testing

/// The seed's two JSON lists as an upload: the operator's mappers and merge rules, plus the
/// upload limits, each one past its value.
struct UploadedJSONListsTests {
    static let roomy = PlainTextEntrantListTests.roomy

    static func users(_ items: [(Int, String, String)]) -> [UInt8] {
        let body = items.map { #"{"userId":\#($0.0),"name":"\#($0.1)","username":"\#($0.2)","regDate":"2020-01-02"}"# }
        return Array(#"{"items":[\#(body.joined(separator: ","))]}"#.utf8)
    }

    static func lottery(_ ids: [Int], void: Set<Int> = []) -> [UInt8] {
        Array(#"{"lotteryList":[\#(ids.map { #"{"userId":\#($0),"void":\#(void.contains($0))}"# }.joined(separator: ","))]}"#.utf8)
    }

    static func error(users: [UInt8], lottery: [UInt8], limits: EntrantListLimits = roomy) -> EntrantListError? {
        do {
            _ = try UploadedJSONLists.merge(users: users, lottery: lottery, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func theSeedListsMergeAsTheOperatorsDo() throws {
        let users = try Fixtures.contents(Fixtures.usersPath)
        let lottery = try Fixtures.contents(Fixtures.lotteryPath)
        let uploaded = try UploadedJSONLists.merge(users: users, lottery: lottery, limits: .standard)
        #expect(uploaded == (try PlayerMerger.merge(users: Fixtures.users, entries: Fixtures.entries)))
    }

    @Test func mergeWarningsAreKept() throws {
        let r = try UploadedJSONLists.merge(users: Self.users([(1, "Ann", "ann"), (2, "Ben", "ben"), (1, "Dup", "d")]),
                                            lottery: Self.lottery([2, 1, 2, 9], void: [1]), limits: Self.roomy)
        #expect(r.players.map(\.userId) == [2, 1])
        #expect(r.players.map(\.isVoid) == [false, true])
        #expect(r.warnings == [.duplicateUser(userId: 1), .duplicateEntry(userId: 2), .unknownUser(userId: 9)])
    }

    @Test func nobodyLeftIsNoEntrantsWithTheWarnings() {
        #expect(Self.error(users: Self.users([(1, "Ann", "ann")]), lottery: Self.lottery([9]))
                == .noEntrants(warnings: [.unknownUser(userId: 9)]))
    }

    @Test func badJSONNamesTheList() {
        guard case .malformedJSON(let list, _)? = Self.error(users: Array("{".utf8), lottery: Self.lottery([1])) else {
            Issue.record("expected malformedJSON"); return
        }
        #expect(list == "users list")
        let shape = Self.error(users: Self.users([(1, "Ann", "ann")]), lottery: Array(#"{"lotteryList":[{"userId":1}]}"#.utf8))
        #expect(shape == .invalidData(list: "lottery list", detail: "lotteryList[0].void is missing"))
        #expect(shape?.message == "The lottery list is JSON of the wrong shape: lotteryList[0].void is missing.")
    }

    // MARK: Limits, each at its value and one past it

    @Test func bodyBytesOfEachList() throws {
        let users = Self.users([(1, "Ann", "ann")])
        let short = Self.lottery([1])
        let lottery = short + Array(repeating: 0x20, count: users.count - short.count)  // both exactly at the limit
        let limit = users.count
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 40, maxBodyBytes: limit)
        #expect(try UploadedJSONLists.merge(users: users, lottery: lottery, limits: limits).players.count == 1)
        #expect(Self.error(users: users + [0x20], lottery: lottery, limits: limits)
                == .bodyTooLarge(list: "users list", limitBytes: limit))
        #expect(Self.error(users: users, lottery: lottery + [0x20], limits: limits)
                == .bodyTooLarge(list: "lottery list", limitBytes: limit))
    }

    @Test func entrantsCountAfterTheMerge() throws {
        let users = Self.users([(1, "A", "a"), (2, "B", "b"), (3, "C", "c")])
        let limits = EntrantListLimits(maxEntrants: 2, maxNameCharacters: 10, maxNameBytes: 40, maxBodyBytes: 1000)
        // Four lines, two entrants: a repeated entry and an unknown user do not count.
        #expect(try UploadedJSONLists.merge(users: users, lottery: Self.lottery([1, 2, 1, 9]), limits: limits)
            .players.count == 2)
        #expect(Self.error(users: users, lottery: Self.lottery([1, 2, 3]), limits: limits) == .tooManyEntrants(limit: 2))
    }

    @Test func nameAndUsernameCharacters() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 3, maxNameBytes: 40, maxBodyBytes: 1000)
        #expect(try UploadedJSONLists.merge(users: Self.users([(1, "Zoë", "zoë")]), lottery: Self.lottery([1]),
                                            limits: limits).players.count == 1)
        let name = Self.error(users: Self.users([(1, "Zoë!", "z")]), lottery: Self.lottery([1]), limits: limits)
        #expect(name == .nameTooLong(at: .userName(userId: 1), limitCharacters: 3))
        #expect(name?.message == "The name of user 1 is longer than 3 characters, the limit for a name.")
        let username = Self.error(users: Self.users([(1, "Z", "zoë!")]), lottery: Self.lottery([1]), limits: limits)
        #expect(username == .nameTooLong(at: .username(userId: 1), limitCharacters: 3))
        #expect(username?.message == "The username of user 1 is longer than 3 characters, the limit for a name.")
    }

    @Test func nameAndUsernameBytes() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 10, maxNameBytes: 4, maxBodyBytes: 1000)
        #expect(try UploadedJSONLists.merge(users: Self.users([(1, "Zoë", "zoë")]), lottery: Self.lottery([1]),
                                            limits: limits).players.count == 1)  // 4 bytes each
        #expect(Self.error(users: Self.users([(1, "Zoëy", "z")]), lottery: Self.lottery([1]), limits: limits)
                == .nameTooManyBytes(at: .userName(userId: 1), limitBytes: 4))
        #expect(Self.error(users: Self.users([(1, "Z", "zoëy")]), lottery: Self.lottery([1]), limits: limits)
                == .nameTooManyBytes(at: .username(userId: 1), limitBytes: 4))
    }

    @Test func usersOutsideTheDrawAreNotHeldToTheNameLimits() throws {
        let limits = EntrantListLimits(maxEntrants: 10, maxNameCharacters: 3, maxNameBytes: 40, maxBodyBytes: 1000)
        let r = try UploadedJSONLists.merge(users: Self.users([(1, "Ann", "ann"), (2, "Very long name", "x")]),
                                            lottery: Self.lottery([1]), limits: limits)
        #expect(r.players.map(\.userId) == [1])
    }
}
