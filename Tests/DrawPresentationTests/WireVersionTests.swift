import DrawCore
import Foundation
import DrawPresentation
import Testing

/// Protocol v1 from the v2 messages (`WireMessages.v1`): the entrants list written back where v1
/// clients read it, found by the draw id before each `entrantCount`, never inside a name.
struct WireVersionTests {
    static let list = EntrantsEncoding.canonicalJSON(Fixtures.players)
    static func lists(_ id: String) -> [UInt8]? { id == Fixtures.plan.drawId ? list : nil }

    @Test func versionsFromTheChosenProtocol() {
        #expect(WireVersion(chosenProtocol: "live-draw.v2") == .v2)
        #expect(WireVersion(chosenProtocol: "live-draw.v1") == .v1)
        #expect(WireVersion(chosenProtocol: "http") == .v1) // no subprotocol offered: v1, as always
        #expect(WireVersion.latest.subprotocol == "live-draw.v2")
    }

    @Test func startedAndFinishedGetTheListBack() throws {
        for v2 in [WireMessages.started(Fixtures.plan, startedAt: 1),
                   WireMessages.finished(FinishedDraw(plan: Fixtures.plan, startedAt: 1, finishedAt: 2))] {
            let v1 = try #require(WireMessages.v1(v2, entrants: Self.lists))
            let m = try Fixtures.object(v1)
            let entrants = try #require(m["entrants"] as? [[String: Any]])
            #expect(entrants.map { $0["userId"] as? Int } == [10, 22, 4, 182])
            #expect(entrants.map { $0["void"] as? Bool } == [false, false, false, true])
            #expect(m["entrantCount"] as? Int == 4)
            // Everything else as in v2.
            var rest = m
            rest["entrants"] = nil
            #expect(NSDictionary(dictionary: rest).isEqual(to: try Fixtures.object(v2)))
        }
    }

    @Test func aSnapshotSaysVersionOneAndCarriesBothDrawsLists() throws {
        let view = RoomView(room: "lobby", viewers: 2,
                            current: .running(Fixtures.plan, startedAt: 1, shown: [2]),
                            lastResult: FinishedDraw(plan: Fixtures.plan, startedAt: 1, finishedAt: 2))
        let v2 = WireMessages.snapshot(view, serverTime: 3)
        #expect(try Fixtures.object(v2)["protocol"] as? Int == 2)
        let m = try Fixtures.object(try #require(WireMessages.v1(v2, entrants: Self.lists)))
        #expect(m["protocol"] as? Int == 1)
        let draw = try #require(m["draw"] as? [String: Any]), last = try #require(m["lastResult"] as? [String: Any])
        #expect((draw["entrants"] as? [Any])?.count == 4 && (last["entrants"] as? [Any])?.count == 4)
        // An idle room's snapshot differs only in its version.
        let idle = WireMessages.snapshot(RoomView(room: "lobby", viewers: 0, current: .idle, lastResult: nil), serverTime: 3)
        #expect(try Fixtures.object(try #require(WireMessages.v1(idle, entrants: Self.lists)))["protocol"] as? Int == 1)
        // The HTTP snapshot (no `type`) is v2 only.
        #expect(WireMessages.v1(WireMessages.snapshot(view, serverTime: 3, asMessage: false), entrants: { _ in nil }) == nil)
    }

    @Test func messagesWithoutAListAreTheSameInBothVersions() {
        #expect(WireMessages.v1(WireMessages.round(Fixtures.plan, index: 0, sentAt: 1), entrants: Self.lists) == nil)
        #expect(WireMessages.v1(WireMessages.presence(viewers: 3), entrants: Self.lists) == nil)
    }

    @Test func aNameThatLooksLikeTheMarkerIsNotAPlaceForTheList() throws {
        let sly = #"x","drawId":"00112233445566778899aabbccddeeff","entrantCount":1"#
        let players = [Player(userId: 1, name: sly, username: sly, regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false)]
        let plan = DrawPlan.make(drawId: Fixtures.plan.drawId, entrants: players, seed: Fixtures.seed, schedule: .original)
        let v2 = WireMessages.finished(FinishedDraw(plan: plan, startedAt: 1, finishedAt: 2))
        var asked = 0
        let v1 = try #require(WireMessages.v1(v2, entrants: { _ in asked += 1; return Array("[]".utf8) }))
        #expect(asked == 1) // the real marker only, not the ones in the picked entry's strings
        #expect(try Fixtures.object(v1)["entrants"] as? [Any] != nil)
    }

    @Test func anUnknownListLeavesTheMessageWithoutIt() throws {
        let v2 = WireMessages.started(Fixtures.plan, startedAt: 1)
        #expect(WireMessages.v1(v2, entrants: { _ in nil }) == nil)
    }
}
