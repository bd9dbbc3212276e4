import DrawCore
import DrawPresentation
import Foundation
import Testing

/// The history API's bodies: one shape for every status, and nothing a record does not reveal.
struct RecordMessagesTests {
    static let sources = DrawSources(usersURL: "http://example.test/users.json", lotteryURL: "file:///srv/lottery.json")

    /// The worked example's draw as the store would give it back, with `shown` rounds stamped.
    static func record(_ status: DrawStatus, shown: Int, plan: DrawPlan = Fixtures.plan) -> DrawRecord {
        let rounds = plan.rounds.map {
            RecordedRound(round: $0.round, offsetMs: $0.offsetMs, pickIndex: $0.pickIndex, player: $0.player,
                          sentAt: $0.round <= shown ? 1000 + Double($0.offsetMs) + 0.25 : nil)
        }
        return DrawRecord(drawId: plan.drawId, room: "team-a", status: status, createdAt: 900.5, startedAt: 1000,
                          finishedAt: status == .running ? nil : 5000, sources: sources, entrants: plan.entrants,
                          warnings: plan.warnings, commitment: plan.commitment, entrantsHash: plan.entrantsHash,
                          schedule: plan.schedule, plannedRounds: rounds, plannedDrawn: plan.outcome.drawn,
                          storedSeed: plan.seed, failure: nil,
                          abortReason: status == .aborted ? "server_shutdown" : nil,
                          winners: plan.winners, plannedWinnerPicks: plan.winners > 1 ? plan.winnerPicks : nil,
                          beacon: plan.beacon)
    }

    @Test func aRunningRecordHasNoSeedNoOutcomeAndOnlyTheRoundsShown() throws {
        let bytes = RecordMessages.record(Self.record(.running, shown: 3))
        #expect(!Fixtures.text(bytes).contains(Fixtures.seed.hex))
        let m = try Fixtures.object(bytes)
        #expect(m["status"] as? String == "running")
        #expect(m["seed"] is NSNull)
        #expect(m["outcome"] is NSNull && m["drawn"] is NSNull && m["winner"] is NSNull)
        #expect(m["verified"] is NSNull)
        #expect(m["finishedAt"] is NSNull)
        #expect((m["rounds"] as? [[String: Any]])?.count == 3)
        #expect(m["picks"] as? [Int] == [3, 0, 2])
        #expect(m["roundsShown"] as? Int == 3)
    }

    @Test func aFinishedRecordCarriesEverythingToVerifyIt() throws {
        let m = try Fixtures.object(RecordMessages.record(Self.record(.finished, shown: 10)))
        #expect(m["drawId"] as? String == Fixtures.plan.drawId)
        #expect(m["seed"] as? String == Fixtures.seed.hex)
        #expect(m["commitment"] as? String == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd")
        #expect(m["entrantsHash"] as? String == "f150c8a68934acd5919016c321349010d893a4069c790a19faf8ff4548e506b2")
        #expect(m["picks"] as? [Int] == [3, 0, 2, 1, 2, 3, 0, 0, 2, 2])
        #expect(m["outcome"] as? String == "winner")
        #expect((m["winner"] as? [String: Any])?["userId"] as? Int == 4)
        #expect(m["verified"] as? Bool == true)
        #expect(m["createdAt"] as? Double == 900.5)
        #expect((m["sources"] as? [String: Any])?["usersUrl"] as? String == Self.sources.usersURL)
        #expect((m["schedule"] as? [String: Any])?["finishOffsetMs"] as? Int == 4400)
        #expect((m["warnings"] as? [[String: Any]])?.first?["code"] as? String == "unknown_user")
        let first = try #require((m["rounds"] as? [[String: Any]])?.first)
        // The same round fields as the `round` message, plus its planned offset.
        #expect(Set(first.keys) == ["round", "of", "index", "userId", "name", "username", "sentAt", "offsetMs"])
        #expect(first["index"] as? Int == 3)
        #expect(first["of"] as? Int == 10)
        #expect(first["sentAt"] as? Double == 1400.25) // startedAt 1000 + round 1 at one interval
    }

    @Test func anInterruptedRecordRevealsTheSeedAndMarksTheRoundsNeverShown() throws {
        let m = try Fixtures.object(RecordMessages.record(Self.record(.interrupted, shown: 3)))
        #expect(m["seed"] as? String == Fixtures.seed.hex)
        #expect(m["outcome"] is NSNull)
        #expect(m["verified"] as? Bool == true)
        let sentAts = (m["rounds"] as? [[String: Any]])?.map { $0["sentAt"] is NSNull }
        #expect(sentAts == Array(repeating: false, count: 3) + Array(repeating: true, count: 7))
    }

    @Test func aFailedRecordHasItsFailureAndNullsElsewhere() throws {
        let failed = DrawRecord(drawId: Fixtures.plan.drawId, room: "lobby", status: .failed, createdAt: 1,
                                startedAt: nil, finishedAt: 2, sources: Self.sources, entrants: [], warnings: [],
                                commitment: nil, entrantsHash: nil, schedule: nil, plannedRounds: [],
                                plannedDrawn: nil, storedSeed: nil,
                                failure: DrawFailure(code: "no_players", message: "No players."), abortReason: nil)
        let m = try Fixtures.object(RecordMessages.record(failed))
        #expect((m["failure"] as? [String: Any])?["code"] as? String == "no_players")
        for key in ["startedAt", "commitment", "entrantsHash", "schedule", "seed", "outcome", "verified", "abortReason"] {
            #expect(m[key] is NSNull, "\(key)")
        }
    }

    @Test func aHistoryPageListsSummariesAndTheNextCursor() throws {
        let plan = Fixtures.voidPlan
        let summary = DrawSummary(drawId: plan.drawId, room: "team-a", status: .finished, createdAt: 1, startedAt: 2,
                                  finishedAt: 3, entrantCount: 4, roundsShown: 10, commitment: plan.commitment,
                                  plannedDrawn: plan.outcome.drawn, failureCode: nil)
        let page = DrawPage(draws: [summary], next: DrawCursor(position: 42))
        let m = try Fixtures.object(RecordMessages.history(room: "team-a", page: page))
        #expect(m["room"] as? String == "team-a")
        #expect(m["nextCursor"] as? String == "42")
        let s = try #require((m["draws"] as? [[String: Any]])?.first)
        #expect(s["outcome"] as? String == "void")
        #expect(s["winner"] is NSNull)
        #expect((s["drawn"] as? [String: Any])?["void"] as? Bool == true)
        #expect(s["entrantCount"] as? Int == 4)
        #expect(s["failureCode"] is NSNull)
        #expect(s["seed"] == nil)

        let last = try Fixtures.object(RecordMessages.history(room: "x", page: DrawPage(draws: [], next: nil)))
        #expect(last["nextCursor"] is NSNull)
        #expect((last["draws"] as? [Any])?.isEmpty == true)
    }

    @Test func pageRequestErrorsMapToTheirCodes() throws {
        for (limit, cursor, code) in [("0", nil, ClientErrorCode.badLimit), ("x", nil, .badLimit), (nil, "y", .badCursor)] {
            do {
                _ = try DrawPageRequest.parse(limit: limit, cursor: cursor)
                Issue.record("accepted \(String(describing: limit)) \(String(describing: cursor))")
            } catch {
                #expect(ClientErrorCode(error) == code)
                #expect(ClientErrorCode(error).httpStatus == 400)
                #expect(error.code == code.rawValue)
            }
        }
    }
}
