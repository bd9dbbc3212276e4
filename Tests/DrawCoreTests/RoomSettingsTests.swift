import DrawCore
import Testing

/// A room's settings over the operator's schedule, the operator's limits on them, and what a
/// room's own list shows before a draw (issue 15).
struct RoomSettingsTests {
    static let operatorSchedule = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 400), countdownMs: 3000)!

    @Test func unsetFieldsAreTheOperatorsValues() {
        #expect(RoomSettings().schedule(defaults: Self.operatorSchedule) == Self.operatorSchedule)
        #expect(RoomSettings().winnerCount == 1)
    }

    @Test func chosenFieldsReplaceTheOperatorsOneByOne() throws {
        let s = try #require(RoomSettings(rounds: 4, countdownMs: 0).schedule(defaults: Self.operatorSchedule))
        #expect(s.rounds == 4 && s.pace == .fixed(intervalMs: 400) && s.countdownMs == 0)
        let fast = try #require(RoomSettings(intervalMs: 100).schedule(defaults: Self.operatorSchedule))
        #expect(fast.pace == .fixed(intervalMs: 100) && fast.rounds == 10)
        // decelerateToMs alone slows down from the operator's first gap.
        let slowing = try #require(RoomSettings(decelerateToMs: 900).schedule(defaults: Self.operatorSchedule))
        #expect(slowing.pace == .decelerating(firstMs: 400, lastMs: 900))
        #expect(RoomSettings(winners: 3).winnerCount == 3)
    }

    @Test func aTitleAndPrizeAreOneLineWithinTheirLengths() {
        let limits = RoomSettingsLimits.standard
        #expect(limits.violation(in: RoomSettings(title: "Spring Giveaway", prize: "A signed book")) == nil)
        // Counted in code points, as openapi.yaml's maxLength: 80 accented letters fit, not 160 bytes.
        #expect(limits.violation(in: RoomSettings(title: String(repeating: "é", count: 80))) == nil)
        #expect(limits.violation(in: RoomSettings(title: String(repeating: "a", count: 81)))
                == "title must be at most 80 characters; got 81.")
        #expect(limits.violation(in: RoomSettings(prize: String(repeating: "b", count: 161)))?.hasPrefix("prize") == true)
        #expect(limits.violation(in: RoomSettings(title: "Two\nlines"))?.contains("control characters") == true)
    }

    @Test func anOperatorsDeceleratingPaceStaysUnlessTheRoomChoosesAGap() throws {
        let decelerating = RoundSchedule(rounds: 5, pace: .decelerating(firstMs: 100, lastMs: 500))!
        #expect(RoomSettings(rounds: 3).schedule(defaults: decelerating)?.pace == decelerating.pace)
        #expect(RoomSettings(intervalMs: 200).schedule(defaults: decelerating)?.pace == .fixed(intervalMs: 200))
    }

    @Test func anInvalidMixIsNoSchedule() {
        #expect(RoomSettings(rounds: 0).schedule(defaults: Self.operatorSchedule) == nil)
    }

    @Test func limitsNameTheFieldTheLimitAndTheValue() {
        let limits = RoomSettingsLimits(maxRounds: 6, maxWinners: 4, minIntervalMs: 20, maxIntervalMs: 500)
        #expect(limits.violation(in: RoomSettings(rounds: 6, intervalMs: 20, decelerateToMs: 500, winners: 4, countdownMs: 0)) == nil)
        let cases: [(RoomSettings, [String])] = [
            (RoomSettings(rounds: 7), ["rounds", "6", "--max-rounds", "7"]),
            (RoomSettings(rounds: 0), ["rounds", "0"]),
            (RoomSettings(winners: 5), ["winners", "4", "--max-winners", "5"]),
            (RoomSettings(winners: 0), ["winners"]),
            (RoomSettings(intervalMs: 19), ["intervalMs", "20", "19"]),
            (RoomSettings(decelerateToMs: 501), ["decelerateToMs", "500", "501"]),
            (RoomSettings(countdownMs: -1), ["countdownMs", "-1"]),
            (RoomSettings(countdownMs: 60_001), ["countdownMs", "60000"]),
        ]
        for (settings, words) in cases {
            let why = limits.violation(in: settings)
            #expect(why != nil, "\(settings)")
            for word in words { #expect(why?.contains(word) == true, "\(word) in \(why ?? "nil")") }
        }
    }

    @Test func aListsSummaryCountsWarningsByCodeInFirstSeenOrder() {
        let players = Fixtures.samplePlayers
        let warnings: [MergeWarning] = [.unknownUser(userId: 9), .duplicateName(userId: 3, firstUserId: 1),
                                        .unknownUser(userId: 8)]
        let list = RoomEntrants(players: players, warnings: warnings, sources: EntrantsOrigin.plainText)
        let summary = list.summary
        #expect(summary.count == players.count)
        #expect(summary.warningCounts == [WarningCount(code: "unknown_user", count: 2),
                                          WarningCount(code: "duplicate_name", count: 1)])
        #expect(summary.allVoid == players.allSatisfy(\.isVoid))
        #expect(list.merge == MergeResult(players: players, warnings: warnings))
    }

    @Test func aListOfVoidEntriesSaysSo() {
        let void = Fixtures.samplePlayers.map {
            Player(userId: $0.userId, name: $0.name, username: $0.username, regDate: $0.regDate, isVoid: true)
        }
        #expect(RoomEntrants(players: void, warnings: [], sources: EntrantsOrigin.jsonLists).summary.allVoid)
    }
}
