import DrawCore
import Testing

/// The durability rules: the commitment goes out only once the seed is durable, the result only
/// once it is durable, and a write that fails ends the draw without carrying it on unrecorded.
struct DrawSessionRecordTests {
    typealias H = SessionHarness

    @Test func startedGoesOutOnlyOnceThePlanIsDurableStampedWhenItDoes() throws {
        var h = H(records: true)
        _ = h.start(at: 0)
        let planned = h.load(at: 10)
        #expect(planned.labels == ["write start"], "nothing published before the plan is durable")
        guard case .started(let record)? = planned.writes.first else {
            Issue.record("the plan was not written")
            return
        }
        #expect(record.room == "lobby" && record.sources == H.sources)
        #expect(record.createdAt == H.at(0).epochMs && record.startedAt == H.at(10).epochMs)
        #expect(h.session.visible == .loading, "viewers still see loading")
        #expect(h.timer(at: 500).isEmpty, "no round before `started`")

        // The write took 3 s: `started` is stamped when it goes out, and round 1 keeps its lead.
        let started = h.written(.started(record), at: 3010)
        #expect(started.labels == ["publish started", "write started_at", "wake 3110"])
        #expect(started.events == [.started(record.plan, startedAt: H.at(3010).epochMs)])
        #expect(started.writes == [.startedAt(drawId: record.drawId, startedAt: H.at(3010).epochMs)])
    }

    @Test func aPlanThatIsNotDurableFailsAsStorageFailureAndRevealsNothing() {
        var h = H(records: true)
        _ = h.start(at: 0)
        guard case .started(let record)? = h.load(at: 10).writes.first else {
            Issue.record("the plan was not written")
            return
        }
        let effects = h.written(.started(record), failing: true, at: 20)
        #expect(effects.labels == ["publish failed storage_failure", "write fail"])
        #expect(effects.events == [.failed(.storageFailure)], "no commitment, no seed")
        guard case .failed(let failed)? = effects.writes.first else { return }
        #expect(failed.failure.code == "storage_failure" && failed.drawId != record.drawId)
        #expect(failed.createdAt == H.at(0).epochMs && failed.failedAt == H.at(20).epochMs)
        #expect(h.session.phase == .idle)
        #expect(h.start(at: 30).labels == ["publish loading", "load 2"], "the room is free again")
    }

    @Test func aFailedStartedStampAbortsTheDrawWithItsSeed() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        let effects = h.written(.startedAt(drawId: plan.drawId, startedAt: H.at(10).epochMs), failing: true, at: 15)
        #expect(effects.labels == ["cancel wake", "publish aborted storage_failure after 0", "write abort"])
        #expect(effects.writes == [.finish(drawId: plan.drawId, ending: .aborted(reason: "storage_failure"),
                                           finishedAt: H.at(15).epochMs, seed: plan.seed)])
        #expect(h.session.phase == .idle)
    }

    @Test func aFailedRoundStampAbortsTheDrawAndNoRoundFollows() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        let round1 = h.timer(at: 110)
        #expect(round1.labels == ["publish round 1", "write round", "wake 210"])
        #expect(round1.writes == [.round(drawId: plan.drawId, round: 1, sentAt: H.at(110).epochMs)])
        _ = h.timer(at: 210)
        let effects = h.written(.round(drawId: plan.drawId, round: 1, sentAt: H.at(110).epochMs), failing: true, at: 220)
        #expect(effects.labels == ["cancel wake", "publish aborted storage_failure after 2", "write abort"])
        #expect(effects.events == [.aborted(plan, roundsShown: 2, reason: "storage_failure")])
        #expect(h.timer(at: 310).isEmpty, "no round after the abort")
        #expect(h.written(.round(drawId: plan.drawId, round: 2, sentAt: H.at(210).epochMs), failing: true, at: 320).isEmpty,
                "a second failed stamp aborts nothing more")
    }

    @Test func durableStampsChangeNothing() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        _ = h.timer(at: 110)
        #expect(h.written(.startedAt(drawId: plan.drawId, startedAt: H.at(10).epochMs), at: 111).isEmpty)
        #expect(h.written(.round(drawId: plan.drawId, round: 1, sentAt: H.at(110).epochMs), at: 112).isEmpty)
        #expect(h.session.isShowingRounds)
    }

    @Test func finishedGoesOutOnlyOnceTheResultIsDurable() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 410, by: 100) { _ = h.timer(at: ms) }
        let result = h.timer(at: 510)
        #expect(result.labels == ["write finish"], "no `finished` before the result is durable")
        #expect(result.writes == [.finish(drawId: plan.drawId, ending: .finished, finishedAt: H.at(510).epochMs, seed: plan.seed)])
        #expect(h.session.isShowingRounds, "the snapshot still shows the rounds")
        #expect(h.timer(at: 610).isEmpty)
        #expect(h.start(at: 620).isEmpty, "still one draw")

        let finished = h.written(result.writes[0], at: 900)
        #expect(finished.events == [.finished(plan, startedAt: H.at(10).epochMs, finishedAt: H.at(510).epochMs)],
                "stamped when the result was due, not when the write returned")
        #expect(h.session.phase == .idle)
    }

    @Test func aResultThatIsNotDurableIsAbortedNotAnnounced() {
        var h = H(records: true)
        let plan = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 410, by: 100) { _ = h.timer(at: ms) }
        let result = h.timer(at: 510)
        let effects = h.written(result.writes[0], failing: true, at: 530)
        #expect(effects.labels == ["cancel wake", "publish aborted storage_failure after 4", "write abort"])
        #expect(effects.writes == [.finish(drawId: plan.drawId, ending: .aborted(reason: "storage_failure"),
                                           finishedAt: H.at(530).epochMs, seed: plan.seed)])
    }

    @Test func anAnswerForAnotherDrawIsIgnored() {
        var h = H(records: true)
        _ = h.start(at: 0)
        _ = h.feed(.playersLoaded(attempt: 1, .failure(.noPlayers(warnings: [])), at: H.at(5)))
        _ = h.start(at: 10)
        guard case .started(let record)? = h.load(at: 20).writes.first else { return }
        let other = NewDrawRecord(room: "lobby", plan: DrawPlan.make(drawId: "ff", entrants: Fixtures.samplePlayers,
                                                                   warnings: [], seed: Fixtures.exampleSeed, schedule: H.schedule),
                                  sources: H.sources, createdAt: 0, startedAt: 0)
        #expect(h.written(.started(other), at: 30).isEmpty)
        #expect(h.written(.finish(drawId: "ff", ending: .finished, finishedAt: 0, seed: Fixtures.exampleSeed), failing: true, at: 31).isEmpty)
        guard case .recordingStart(let r) = h.session.phase, r.plan == record.plan else {
            Issue.record("the draw's plan is no longer being recorded")
            return
        }
        #expect(h.written(.started(record), at: 40).labels.first == "publish started")
    }

    @Test func theSessionHasWorkUntilEveryWriteIsAnswered() {
        var h = H(records: true)
        let plan = h.started(at: 10)          // the plan's write is answered; its stamp is not
        #expect(h.session.outstanding == 1)
        _ = h.feed(.abort(reason: "test", at: H.at(20)))
        #expect(!h.session.isBusy && h.session.hasWork, "the stamp and the abort's record are owed")
        _ = h.written(.startedAt(drawId: plan.drawId, startedAt: 0), at: 21)
        _ = h.written(.finish(drawId: plan.drawId, ending: .aborted(reason: "test"), finishedAt: 0, seed: plan.seed), at: 22)
        #expect(!h.session.hasWork)
    }
}
