import DrawCore
import Foundation
@testable import DrawPresentation
import Testing

struct WireMessagesTests {
    @Test func roundMessageIsExactlyTheDocumentedBytes() {
        let bytes = WireMessages.round(Fixtures.plan, index: 0, sentAt: 1732262400401.2, viewers: 3)
        #expect(Fixtures.text(bytes) == #"{"type":"round","drawId":"00112233445566778899aabbccddeeff","round":1,"of":10,"index":3,"userId":182,"name":"Mohsen","username":"AghaMohsen","sentAt":1732262400401.200,"viewers":3}"#)
    }

    @Test func startedCarriesThePublicPlanButNotTheSeed() throws {
        let bytes = WireMessages.started(Fixtures.plan, startedAt: 1000)
        let m = try Fixtures.object(bytes)
        #expect(m["type"] as? String == "started")
        #expect(m["commitment"] as? String == Fixtures.plan.commitment)
        #expect(m["entrantsHash"] as? String == "f150c8a68934acd5919016c321349010d893a4069c790a19faf8ff4548e506b2")
        // v2: the count and the hash pin the entrants; the list is served over HTTP.
        #expect(m["entrants"] == nil)
        #expect(m["entrantCount"] as? Int == 4)
        let schedule = try #require(m["schedule"] as? [String: Any])
        #expect(schedule["offsetsMs"] as? [Int] == [400, 800, 1200, 1600, 2000, 2400, 2800, 3200, 3600, 4000])
        #expect(schedule["finishOffsetMs"] as? Int == 4400)
        let warnings = try #require(m["warnings"] as? [[String: Any]])
        #expect(warnings.first?["code"] as? String == "unknown_user")
        #expect(!Fixtures.text(bytes).contains(Fixtures.seed.hex))
    }

    /// A countdown is timing only: `started` says it and round 1 waits for it, the picks are
    /// the same as without it (the fairness vectors do not change).
    @Test func aCountdownIsInTheScheduleAndChangesNoPick() throws {
        let counted = try #require(RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 400), countdownMs: 3000))
        let plan = DrawPlan.make(drawId: Fixtures.plan.drawId, entrants: Fixtures.players,
                                 warnings: [.unknownUser(userId: 999)], seed: Fixtures.seed, schedule: counted)
        let schedule = try #require(try Fixtures.object(WireMessages.started(plan, startedAt: 1000))["schedule"] as? [String: Any])
        #expect(schedule["countdownMs"] as? Int == 3000)
        #expect(schedule["offsetsMs"] as? [Int] == [3000, 3400, 3800, 4200, 4600, 5000, 5400, 5800, 6200, 6600])
        #expect(plan.rounds.map(\.pickIndex) == Fixtures.plan.rounds.map(\.pickIndex))
        #expect(plan.commitment == Fixtures.plan.commitment && plan.outcome == Fixtures.plan.outcome)
        // Without a countdown the field is absent: the documented bytes stay as they were.
        #expect(!Fixtures.text(WireMessages.started(Fixtures.plan, startedAt: 1000)).contains("countdownMs"))
    }

    @Test func finishedRevealsSeedAndOutcome() throws {
        let m = try Fixtures.object(WireMessages.finished(FinishedDraw(plan: Fixtures.plan, startedAt: 1, finishedAt: 2)))
        #expect(m["outcome"] as? String == "winner")
        #expect(m["seed"] as? String == Fixtures.seed.hex)
        #expect(m["picks"] as? [Int] == [3, 0, 2, 1, 2, 3, 0, 0, 2, 2])
        #expect((m["winner"] as? [String: Any])?["name"] as? String == "Mack")
    }

    @Test func voidFinishHasNullWinnerAndTheDrawnEntry() throws {
        let m = try Fixtures.object(WireMessages.finished(FinishedDraw(plan: Fixtures.voidPlan, startedAt: 1, finishedAt: 2)))
        #expect(m["outcome"] as? String == "void")
        #expect(m["winner"] is NSNull)
        #expect((m["drawn"] as? [String: Any])?["userId"] as? Int == 182)
    }

    @Test func runningSnapshotHasShownRoundsButNeverTheSeed() throws {
        let view = RoomView(room: "lobby", viewers: 3,
                            current: .running(Fixtures.plan, startedAt: 10, shown: [10, 410, 810, 1210]),
                            lastResult: FinishedDraw(plan: Fixtures.voidPlan, startedAt: 1, finishedAt: 2))
        let bytes = WireMessages.snapshot(view, serverTime: 1300)
        let m = try Fixtures.object(bytes)
        #expect(m["type"] as? String == "snapshot")
        #expect(m["viewers"] as? Int == 3)
        let draw = try #require(m["draw"] as? [String: Any])
        #expect(draw["phase"] as? String == "running")
        #expect((draw["rounds"] as? [[String: Any]])?.map { $0["round"] as? Int } == [1, 2, 3, 4])
        #expect(!Fixtures.text(bytes).contains(Fixtures.seed.hex), "running draw's seed leaked")
        // The previous draw is finished, so its seed may be shown.
        #expect((m["lastResult"] as? [String: Any])?["outcome"] as? String == "void")
    }

    @Test func apiSnapshotOmitsType() throws {
        let view = RoomView(room: "r", viewers: 0, current: .loading, lastResult: nil)
        let m = try Fixtures.object(WireMessages.snapshot(view, serverTime: 1, asMessage: false))
        #expect(m["type"] == nil)
        #expect((m["draw"] as? [String: Any])?["phase"] as? String == "loading")
        #expect(m["lastResult"] is NSNull)
    }

    @Test func failedCarriesCodeMessageAndWarnings() throws {
        let m = try Fixtures.object(WireMessages.failed(.noPlayers(warnings: [.unknownUser(userId: 5)])))
        #expect(m["code"] as? String == "no_players")
        #expect((m["message"] as? String)?.isEmpty == false)
        #expect((m["warnings"] as? [[String: Any]])?.count == 1)
        let s = try Fixtures.object(WireMessages.failed(.source(.badStatus(source: "http://x/u.json", status: 503))))
        #expect(s["code"] as? String == "source_bad_status")
        #expect((s["message"] as? String)?.contains("503") == true)
    }

    @Test func everyEventEncodesToItsType() throws {
        let events: [(DrawEvent, String)] = [
            (.loading(at: 1), "loading"),
            (.started(Fixtures.plan, startedAt: 1), "started"),
            (.round(Fixtures.plan, index: 9, sentAtMs: 2), "round"),
            (.finished(Fixtures.plan, startedAt: 1, finishedAt: 3), "finished"),
            (.failed(.noPlayers(warnings: [])), "failed"),
            (.aborted(Fixtures.plan, roundsShown: 4, reason: "server_shutdown"), "aborted"),
        ]
        for (event, type) in events {
            let m = try Fixtures.object(WireMessages.encode(event, room: "lobby"))
            #expect(m["type"] as? String == type)
        }
    }

    @Test func onlyRoundsCarryTheViewerCount() throws {
        let round = try Fixtures.object(WireMessages.encode(.round(Fixtures.plan, index: 0, sentAtMs: 1), room: "lobby", viewers: 5))
        #expect(round["viewers"] as? Int == 5)
        let started = try Fixtures.object(WireMessages.encode(.started(Fixtures.plan, startedAt: 1), room: "lobby", viewers: 5))
        #expect(started["viewers"] == nil)
        #expect(try Fixtures.object(WireMessages.round(Fixtures.plan, index: 0, sentAt: 1))["viewers"] == nil)
    }

    @Test func abortedRevealsSeedAndRoundsShown() throws {
        let m = try Fixtures.object(WireMessages.aborted(Fixtures.plan, roundsShown: 4, reason: "server_shutdown"))
        #expect(m["seed"] as? String == Fixtures.seed.hex)
        #expect(m["roundsShown"] as? Int == 4)
    }

    @Test func smallMessages() {
        #expect(Fixtures.text(WireMessages.presence(viewers: 42)) == #"{"type":"presence","viewers":42}"#)
        #expect(Fixtures.text(WireMessages.error(.forbidden)) ==
                #"{"type":"error","code":"forbidden","message":"A valid host key is required to start a draw."}"#)
        #expect(Fixtures.text(WireMessages.pong(id: .int(7), serverTime: 5)) == #"{"type":"pong","id":7,"serverTime":5.000}"#)
        #expect(Fixtures.text(WireMessages.pong(id: nil, serverTime: 5)) == #"{"type":"pong","serverTime":5.000}"#)
    }

    @Test func namesAreEscapedLikeJSONStringify() throws {
        let evil = Player(userId: 1, name: "</script>\"\n", username: "u", regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false)
        let plan = DrawPlan.make(drawId: "d", entrants: [evil], seed: Fixtures.seed, schedule: .original)
        let m = try Fixtures.object(WireMessages.round(plan, index: 0, sentAt: 0))
        #expect(m["name"] as? String == "</script>\"\n")
    }
}
