import DrawCore
import Testing

/// Stopping a draw in each phase (an abort, or the server shutting down), and answers that
/// arrive for an attempt that is over.
struct DrawSessionAbortTests {
    typealias H = SessionHarness

    @Test func anAbortWhenIdleDoesNothing() {
        var h = H(records: true)
        #expect(h.feed(.abort(reason: "test", at: H.at(0))).isEmpty)
        #expect(h.session.canStart)
    }

    @Test func aLoadingDrawIsForgottenAndItsLatePlayersAreIgnored() {
        var h = H(records: true)
        _ = h.start(at: 0)
        #expect(h.feed(.abort(reason: "test", at: H.at(5))).isEmpty)
        #expect(h.session.phase == .idle)
        #expect(h.session.hasWork, "the load is still owed an answer")
        #expect(h.start(at: 10).labels == ["publish loading", "load 2"])

        // Attempt 1's players arrive now: stale, ignored, and no longer owed.
        #expect(h.load(attempt: 1, at: 20).isEmpty)
        #expect(h.session.phase == .loading(attempt: 2, createdAt: H.at(10).epochMs))
        #expect(h.session.outstanding == 1)
        #expect(h.feed(.playersLoaded(attempt: 1, .failure(.noPlayers(warnings: [])), at: H.at(21))).isEmpty)
        #expect(h.load(attempt: 2, at: 30).labels == ["write start"], "the current attempt goes on")
    }

    @Test func aDrawWhosePlanIsBeingRecordedIsDroppedUnpublished() {
        var h = H(records: true)
        _ = h.start(at: 0)
        guard case .started(let record)? = h.load(at: 10).writes.first else { return }
        let effects = h.feed(.abort(reason: "test", at: H.at(20)))
        #expect(effects.events.isEmpty, "never published, so nothing to abort on the wire")
        #expect(effects.writes == [.finish(drawId: record.drawId, ending: .aborted(reason: "test"),
                                           finishedAt: H.at(20).epochMs, seed: record.plan.seed)],
                "the record is closed behind the plan's write")
        #expect(h.session.phase == .idle)
        // The plan's write comes back durable afterwards: it starts nothing.
        #expect(h.written(.started(record), at: 30).isEmpty)
        #expect(h.timer(at: 130).isEmpty)
    }

    @Test func aRunningDrawIsAbortedWithItsSeedAndNoRoundFollows() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        _ = h.timer(at: 110)
        let effects = h.feed(.abort(reason: "test", at: H.at(150)))
        #expect(effects.labels == ["cancel wake", "publish aborted test after 1", "write abort"])
        #expect(effects.events == [.aborted(plan, roundsShown: 1, reason: "test")])
        #expect(h.timer(at: 210).isEmpty, "no round after abort")
        #expect(!h.session.isShowingRounds && h.session.visible == .idle)
    }

    @Test func aDrawWhoseResultIsBeingRecordedIsLeftToFinish() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 510, by: 100) { _ = h.timer(at: ms) }
        #expect(h.feed(.shutdown(at: H.at(520))).isEmpty)
        let finished = h.written(.finish(drawId: plan.drawId, ending: .finished, finishedAt: H.at(510).epochMs, seed: plan.seed),
                                 at: 530)
        #expect(finished.labels == ["publish finished"], "viewers still get the result")
    }

    @Test func shutdownAbortsAsServerShutdownAndRefusesLaterStarts() {
        var h = H(records: false)
        _ = h.started(at: 10)
        _ = h.timer(at: 110)
        _ = h.timer(at: 210)
        #expect(h.feed(.shutdown(at: H.at(250))).labels == ["cancel wake", "publish aborted server_shutdown after 2"])
        #expect(h.session.isShutDown && !h.session.canStart)
        #expect(h.start(at: 300).isEmpty)
    }

    @Test func shutdownForgetsALoadingDraw() {
        var h = H(records: false)
        _ = h.start(at: 0)
        #expect(h.feed(.shutdown(at: H.at(5))).isEmpty)
        #expect(h.load(attempt: 1, at: 10).isEmpty, "its players come too late")
        #expect(h.session.phase == .idle && !h.session.hasWork)
    }
}
