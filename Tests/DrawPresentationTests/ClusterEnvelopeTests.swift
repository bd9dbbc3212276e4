import DrawCore
@testable import DrawPresentation
import Testing

/// The cluster's event format and what a watching node folds from it: a node that only receives
/// a draw's envelopes gives a joiner byte for byte the snapshot the running node gives.
struct ClusterEnvelopeTests {
    private let plan = Fixtures.plan
    private let startedAt = 1_700_000_000_000.0

    /// The events of a draw that showed `shown` rounds, as the running node would publish them.
    private func envelopes(shown: Int, finished: Bool) -> [ClusterEnvelope] {
        var events: [DrawEvent] = [.loading(at: startedAt - 100), .started(plan, startedAt: startedAt)]
        for i in 0..<shown { events.append(.round(plan, index: i, sentAtMs: startedAt + Double(plan.rounds[i].offsetMs) + 1)) }
        if finished { events.append(.finished(plan, startedAt: startedAt, finishedAt: startedAt + 20_000)) }
        return events.map { event in
            ClusterEnvelope(event: event, wire: WireMessages.encode(event, room: "quiz", viewers: 3), node: "node-a",
                            now: startedAt, roundDueAt: startedAt + 5)
        }
    }

    @Test func anEnvelopeReadsBackAsItWasWritten() throws {
        for envelope in envelopes(shown: 3, finished: true) {
            let decoded = try #require(ClusterEnvelope.decode(envelope.encode()))
            #expect(decoded == envelope)
        }
        let round = envelopes(shown: 1, finished: false)[2]
        #expect(round.kind == .round && round.index == 0 && round.plannedAt == startedAt + 5)
        #expect(round.wire == WireMessages.round(plan, index: 0, sentAt: startedAt + Double(plan.rounds[0].offsetMs) + 1, viewers: 3))
    }

    /// `started` carries the entrants along (v2's wire no longer has them), with their hash.
    @Test func startedCarriesTheEntrantsSection() throws {
        let list = EntrantsEncoding.canonicalJSON(plan.entrants)
        let event = DrawEvent.started(plan, startedAt: startedAt)
        let envelope = ClusterEnvelope(event: event, wire: WireMessages.encode(event, room: "quiz"), node: "node-a",
                                       now: startedAt, entrants: list)
        let decoded = try #require(ClusterEnvelope.decode(envelope.encode()))
        #expect(decoded.entrants == list && decoded.entrantsHash == plan.entrantsHash)
        #expect(decoded == envelope)
        // Other events have no such section, and a cut section is dropped like any cut message.
        #expect(envelopes(shown: 1, finished: false)[2].entrants.isEmpty)
        #expect(ClusterEnvelope.decode(Array(envelope.encode().dropLast())) == nil)
    }

    @Test func damagedOrForeignMessagesAreDropped() {
        let bytes = envelopes(shown: 1, finished: false)[2].encode()
        #expect(ClusterEnvelope.decode(Array(bytes.dropLast())) == nil)            // cut short
        #expect(ClusterEnvelope.decode(bytes + [0x20]) == nil)                      // longer than said
        #expect(ClusterEnvelope.decode(Array("hello".utf8)) == nil)                 // no header
        let newer = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""v":1"#, with: #""v":2"#).utf8)
        #expect(ClusterEnvelope.decode(newer) == nil)                               // another version
        let negative = Array(#"{"v":1,"node":"n","kind":"round","plannedAt":1,"sentAt":1,"wire":-1,"view":1}"#.utf8) + [0x0a]
        #expect(ClusterEnvelope.decode(negative) == nil)
        // Invalid UTF-8 in any section: viewers would get it as a text frame (issue 27, finding 5).
        let envelope = envelopes(shown: 1, finished: false)[2]
        for section in 0..<2 {
            var bad = envelope
            if section == 0 { bad.wire[bad.wire.count / 2] = 0xff } else { bad.view[bad.view.count / 2] = 0xfe }
            #expect(ClusterEnvelope.decode(bad.encode()) == nil, "section \(section)")
        }
    }

    @Test func aWatchingNodeSnapshotsARunningDrawAsTheRunningNodeDoes() {
        var remote = RemoteRoomView()
        for envelope in envelopes(shown: 4, finished: false) { remote.apply(envelope) }
        let shown = (0..<4).map { startedAt + Double(plan.rounds[$0].offsetMs) + 1 }
        let local = RoomView(room: "quiz", viewers: 2, current: .running(plan, startedAt: startedAt, shown: shown), lastResult: nil)
        let expected = WireMessages.snapshot(local, serverTime: 5)
        let built = WireMessages.snapshot(room: "quiz", viewers: 2, serverTime: 5, draw: remote.draw,
                                          lastResult: remote.lastResult ?? WireMessages.snapshotLastResult(nil))
        #expect(Fixtures.text(built) == Fixtures.text(expected))
    }

    @Test func afterTheResultTheWatchingNodeShowsItAsLastResult() {
        var remote = RemoteRoomView()
        for envelope in envelopes(shown: plan.rounds.count, finished: true) { remote.apply(envelope) }
        #expect(!remote.isActive)
        let finished = FinishedDraw(plan: plan, startedAt: startedAt, finishedAt: startedAt + 20_000)
        let expected = WireMessages.snapshot(RoomView(room: "quiz", viewers: 1, current: .idle, lastResult: finished), serverTime: 5)
        let built = WireMessages.snapshot(room: "quiz", viewers: 1, serverTime: 5, draw: remote.draw,
                                          lastResult: remote.lastResult ?? [])
        #expect(Fixtures.text(built) == Fixtures.text(expected))
    }

    @Test func aMissedRoundOrAnotherDrawsRoundIsNotFoldedIn() {
        var remote = RemoteRoomView()
        let all = envelopes(shown: 3, finished: false)
        remote.apply(all[1])                 // started
        remote.apply(all[3])                 // round 2 without round 1
        #expect(remote.rounds.isEmpty)
        var foreign = all[2]
        foreign.drawId = "another"
        remote.apply(foreign)
        #expect(remote.rounds.isEmpty)
        remote.apply(all[2])
        #expect(remote.rounds.count == 1)
        remote.supersededLocally(resultToo: false)
        #expect(!remote.isActive)
    }

    /// A draw revealing each winner: after a per-winner event the watching node's snapshot says
    /// what the running node's says (`progress`), so a joiner there sees the winners so far.
    @Test func aWatchingNodeSnapshotsTheRevealProgressAsTheRunningNodeDoes() throws {
        let each = DrawPlan.make(drawId: "00112233445566778899aabbccddeeff", entrants: Fixtures.players,
                                 seed: Fixtures.seed, schedule: .original, winners: 2, revealEachWinner: true)
        let perWinner = each.roundsPerWinner
        let shown = (0..<perWinner).map { startedAt + Double(each.rounds[$0].offsetMs) + 1 }
        var events: [DrawEvent] = [.started(each, startedAt: startedAt)]
        events += shown.enumerated().map { .round(each, index: $0.offset, sentAtMs: $0.element) }
        let waiting = RevealProgress(slot: 1, slotStartedAt: startedAt, revealed: 1, awaitingHost: true)
        var remote = RemoteRoomView()
        for event in events {
            remote.apply(ClusterEnvelope(event: event, wire: WireMessages.encode(event, room: "quiz"), node: "node-a", now: startedAt))
        }
        let reveal = DrawEvent.winner(each, slot: 1, sentAtMs: shown.last! + 5, next: .awaitingHost)
        let envelope = ClusterEnvelope(event: reveal, wire: WireMessages.encode(reveal, room: "quiz"), node: "node-a",
                                       now: startedAt, progress: waiting)
        #expect(envelope.index == nil)
        #expect(try #require(ClusterEnvelope.decode(envelope.encode())) == envelope)
        remote.apply(envelope)
        let local = WireMessages.snapshotDraw(.running(each, startedAt: startedAt, shown: shown), progress: waiting)
        #expect(Fixtures.text(remote.draw) == Fixtures.text(local))
        #expect(try Fixtures.object(remote.draw)["progress"] != nil)
        // The same read back from the store, and gone with the draw.
        let stored = StoredRoomView(head: remote.head, drawId: remote.drawId, rounds: remote.rounds, progress: remote.progress)
        #expect(RemoteRoomView(stored: stored).draw == remote.draw)
        remote.apply(ClusterEnvelope(node: "node-a", kind: .aborted, drawId: each.drawId, plannedAt: 1, sentAt: 1, wire: []))
        #expect(remote.progress.isEmpty && !remote.isActive)
    }
}
