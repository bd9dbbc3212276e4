import DrawCore
@testable import DrawPresentation
import Foundation
import Testing

/// What a room shows of its next draw (issue 15): the snapshot's settings and own list, the
/// answers to the host's changes, the settings body as it is read, and the list errors' codes.
struct RoomInfoWireTests {
    static let schedule = RoundSchedule(rounds: 4, pace: .decelerating(firstMs: 100, lastMs: 300), countdownMs: 500)!
    static let list = RoomEntrants(players: Fixtures.players, warnings: [.unknownUser(userId: 9), .unknownUser(userId: 8)],
                                   sources: EntrantsOrigin.jsonLists)

    @Test func theSnapshotCarriesTheSettingsInEffectAndTheListsSummary() throws {
        let info = RoomInfo(settings: RoomSettings(winners: 3), schedule: Self.schedule, entrants: Self.list.summary)
        let view = RoomView(room: "r", viewers: 2, current: .idle, lastResult: nil, info: info)
        let m = try Fixtures.object(WireMessages.snapshot(view, serverTime: 1))
        let settings = try #require(m["settings"] as? [String: Any])
        #expect(settings["rounds"] as? Int == 4 && settings["intervalMs"] as? Int == 100)
        #expect(settings["decelerateToMs"] as? Int == 300 && settings["winners"] as? Int == 3)
        #expect(settings["countdownMs"] as? Int == 500)
        #expect(m["entrants"] as? Int == Fixtures.players.count)
        #expect((m["warnings"] as? [[String: Any]])?.first?["count"] as? Int == 2)
        #expect(m["allVoid"] as? Bool == Fixtures.players.allSatisfy(\.isVoid))
    }

    @Test func withoutAListTheCountIsNullAndAnEvenPaceHasNoDeceleration() throws {
        let even = RoundSchedule(rounds: 10, pace: .fixed(intervalMs: 400))!
        let view = RoomView(room: "r", viewers: 0, current: .idle, lastResult: nil,
                            info: RoomInfo(settings: RoomSettings(), schedule: even, entrants: nil))
        let text = Fixtures.text(WireMessages.snapshot(view, serverTime: 1, asMessage: false))
        #expect(text.hasSuffix(#""settings":{"rounds":10,"intervalMs":400,"decelerateToMs":null,"winners":1,"countdownMs":0,"title":null,"prize":null},"entrants":null,"warnings":[],"allVoid":false,"scheduled":null}"#))
    }

    @Test func aScheduledDrawIsInTheSnapshotWithItsCommitment() throws {
        let c = ScheduledDrawCommitment(drawId: "00112233445566778899aabbccddeeff", room: "r", at: 1_896_112_800_000,
                                        createdAt: 1_896_112_000_000.5, seedHash: String(repeating: "a", count: 64),
                                        entrantsHash: String(repeating: "b", count: 64), entrantCount: 5, winners: 2)
        let info = RoomInfo(settings: RoomSettings(), schedule: Self.schedule, entrants: nil, scheduled: c)
        let view = RoomView(room: "r", viewers: 0, current: .idle, lastResult: nil, info: info)
        let text = Fixtures.text(WireMessages.snapshot(view, serverTime: 1, asMessage: false))
        #expect(text.hasSuffix(#""scheduled":{"drawId":"00112233445566778899aabbccddeeff","at":1896112800000.000,"#
            + #""atText":"2030-01-31T18:00:00.000Z","scheduledAt":1896112000000.500,"commitment":"\#(c.seedHash)","#
            + #""entrantsHash":"\#(c.entrantsHash)","entrants":5,"winners":2}}"#), "\(text)")
        #expect(!text.contains("seed\""), "no seed before the draw ends")
    }

    @Test func aSnapshotWithoutInfoIsAsBefore() {
        let view = RoomView(room: "r", viewers: 0, current: .idle, lastResult: nil)
        #expect(Fixtures.text(WireMessages.snapshot(view, serverTime: 1)).hasSuffix(#""draw":null,"lastResult":null}"#))
    }

    @Test func theTitleAndPrizeAreReadAsTextAndShownInTheSnapshot() throws {
        let read = try RoomSettingsRequest.parse(Array(#"{"title":"Spring Giveaway","prize":"","winners":3}"#.utf8)).get()
        #expect(read == RoomSettings(winners: 3, title: "Spring Giveaway"))
        guard case .failure(let why) = RoomSettingsRequest.parse(Array(#"{"title":7}"#.utf8)) else {
            Issue.record("a number was taken as a title")
            return
        }
        #expect(why.code == .invalidSettings && why.message == "title must be text or null.")
        let info = RoomInfo(settings: read, schedule: Self.schedule, entrants: nil)
        let view = RoomView(room: "spring-giveaway", viewers: 0, current: .idle, lastResult: nil, info: info)
        let settings = try #require(try Fixtures.object(WireMessages.snapshot(view, serverTime: 1))["settings"] as? [String: Any])
        #expect(settings["title"] as? String == "Spring Giveaway" && settings["prize"] is NSNull)
    }

    @Test func theUploadAnswerListsEveryWarning() throws {
        let m = try Fixtures.object(APIMessages.entrantsReplaced(room: "r", entrants: Self.list))
        #expect(m["room"] as? String == "r" && m["entrants"] as? Int == Fixtures.players.count)
        #expect((m["warnings"] as? [[String: Any]])?.map { $0["userId"] as? Int } == [9, 8])
    }

    @Test func settingsBodiesAreReadStrictly() throws {
        #expect(try RoomSettingsRequest.parse(Array(#"{"rounds":3,"winners":null,"countdownMs":0}"#.utf8)).get()
                == RoomSettings(rounds: 3, countdownMs: 0))
        #expect(try RoomSettingsRequest.parse(Array("{}".utf8)).get() == RoomSettings())
        for (body, code, word) in [("[]", ClientErrorCode.badJSON, nil), ("{", .badJSON, nil),
                                   (#"{"winner":2}"#, .invalidSettings, "winner"),
                                   (#"{"rounds":2.5}"#, .invalidSettings, "rounds"),
                                   (#"{"intervalMs":"100"}"#, .invalidSettings, "intervalMs"),
                                   (#"{"winners":true}"#, .invalidSettings, "winners"),
                                   (#"{"rounds":99999999999999999999}"#, .invalidSettings, "rounds")] {
            guard case .failure(let why) = RoomSettingsRequest.parse(Array(body.utf8)) else {
                Issue.record("\(body) was accepted")
                continue
            }
            #expect(why.code == code, "\(body)")
            if let word { #expect(why.message?.contains(word) == true, "\(body): \(why.message ?? "")") }
        }
    }

    @Test func everyListErrorHasItsOwnCodeTheSameAsTheCores() {
        let errors: [EntrantListError] = [
            .bodyTooLarge(list: "x", limitBytes: 1), .notUTF8(byteOffset: 0), .tooManyEntrants(limit: 1),
            .nameTooLong(at: .line(1), limitCharacters: 1), .nameTooManyBytes(at: .line(1), limitBytes: 1),
            .noEntrants(warnings: []), .malformedJSON(list: "x", detail: "y"), .invalidData(list: "x", detail: "y"),
        ]
        let codes = errors.map { ClientErrorCode(listError: $0) }
        #expect(codes.map(\.rawValue) == errors.map(\.code))
        #expect(Set(codes).count == errors.count)
        #expect(codes.allSatisfy { (400..<500).contains($0.httpStatus) })
        #expect(ClientErrorCode.listTooLarge.httpStatus == 413)
    }
}
