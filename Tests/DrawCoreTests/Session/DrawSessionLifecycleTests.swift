import DrawCore
import Testing

/// A draw's way from the host's request to its end, without records: which effects each input
/// yields, in which order, and when each step is due (`DrawPacer`).
struct DrawSessionLifecycleTests {
    typealias H = SessionHarness

    @Test func aStartPublishesLoadingThenAsksForThePlayers() {
        var h = H(records: false)
        #expect(h.session.canStart)
        #expect(h.start(at: 5).labels == ["publish loading", "load 1"])
        #expect(h.session.phase == .loading(attempt: 1, createdAt: H.at(5).epochMs))
        #expect(h.session.visible == .loading)
        #expect(h.session.isBusy && h.session.hasWork)
        #expect(!h.session.isShowingRounds)
    }

    @Test func oneDrawAtATime() {
        var h = H(records: false)
        _ = h.start()
        #expect(!h.session.canStart)
        #expect(h.start(at: 1).isEmpty, "a second start while loading")
        _ = h.load(at: 10)
        #expect(h.start(at: 20).isEmpty, "a second start while running")
        #expect(h.session.attempts == 1)
    }

    @Test func aFailedLoadPublishesFailedAndTheRoomIsFreeAgain() {
        var h = H(records: false)
        _ = h.start()
        let effects = h.feed(.playersLoaded(attempt: 1, .failure(.noPlayers(warnings: [])), at: H.at(10)))
        #expect(effects.labels == ["publish failed no_players"])
        #expect(h.session.phase == .idle && !h.session.hasWork)
        #expect(h.start(at: 20).labels == ["publish loading", "load 2"])
    }

    @Test func withoutRecordsEveryStepFollowsAtOnceAndIsPacedFromStarted() {
        var h = H(records: false)
        _ = h.start()
        let started = h.load(at: 10)
        #expect(started.labels == ["publish started", "wake 110"])
        guard case .started(let plan, let startedAt)? = started.events.first else {
            Issue.record("no `started`")
            return
        }
        #expect(startedAt == H.at(10).epochMs)
        #expect(h.timer(at: 110).labels == ["publish round 1", "wake 210"])
        #expect(h.timer(at: 210).labels == ["publish round 2", "wake 310"])
        #expect(h.timer(at: 310).labels == ["publish round 3", "wake 410"])
        #expect(h.timer(at: 410).labels == ["publish round 4", "wake 510"])
        let end = h.timer(at: 510)
        #expect(end.events == [.finished(plan, startedAt: startedAt, finishedAt: H.at(510).epochMs)])
        #expect(h.session.phase == .idle && !h.session.hasWork)
        #expect(h.timer(at: 610).isEmpty, "nothing after the end")
    }

    /// The pacing rule as the session applies it: a late step pushes the next one a full gap
    /// after its actual send, and the result holds the last round a full gap too.
    @Test func aLateTimerPushesTheNextStepAFullGapAfterTheActualSend() {
        var h = H(records: false)
        _ = h.start()
        #expect(h.load(at: 10).labels.last == "wake 110")
        #expect(h.timer(at: 110).labels.last == "wake 210")
        // Round 2 (due at 210) fires at 400, when round 3's planned time (310) has passed too.
        #expect(h.timer(at: 400).labels == ["publish round 2", "wake 500"])
        #expect(h.timer(at: 500).labels.last == "wake 600")
        #expect(h.timer(at: 600).labels == ["publish round 4", "wake 700"])
        #expect(h.timer(at: 700).labels == ["publish finished"])
    }

    @Test func eachRoundCarriesItsSendTimeAndTheSnapshotShowsIt() {
        var h = H(records: false)
        let plan = h.started(at: 10)
        #expect(h.session.isShowingRounds)
        #expect(h.session.visible == .running(plan, startedAt: H.at(10).epochMs, shown: []))
        let round = h.timer(at: 112)
        #expect(round.events == [.round(plan, index: 0, sentAtMs: H.at(112).epochMs)])
        _ = h.timer(at: 215)
        #expect(h.session.visible == .running(plan, startedAt: H.at(10).epochMs, shown: [H.at(112).epochMs, H.at(215).epochMs]))
    }

    @Test func aTimerWithNothingToDoIsIgnored() {
        var h = H(records: false)
        #expect(h.timer(at: 1).isEmpty, "idle")
        _ = h.start()
        #expect(h.timer(at: 2).isEmpty, "loading")
        #expect(h.session.phase == .loading(attempt: 1, createdAt: H.at(0).epochMs))
    }

    @Test func withoutRecordsNothingIsWritten() {
        var h = H(records: false)
        var all = h.start()
        all += h.load(at: 10)
        for ms in stride(from: UInt64(110), through: 510, by: 100) { all += h.timer(at: ms) }
        _ = h.start(at: 600)
        all += h.feed(.playersLoaded(attempt: 2, .failure(.noPlayers(warnings: [])), at: H.at(610)))
        #expect(all.writes.isEmpty)
        #expect(!h.session.hasWork)
    }
}
