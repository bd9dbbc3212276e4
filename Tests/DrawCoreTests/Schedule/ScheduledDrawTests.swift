import DrawCore
import Testing

/// Scheduled draws in DrawCore (issue 30): the time a client sends, the window it must fall in,
/// and the session starting a draw from its committed inputs. Times are the test's own.
struct ScheduledDrawTests {
    typealias H = SessionHarness

    static func draw(at: Double = H.epochOrigin + 60_000, reveal: WinnerRevealMode = .eachRunningOn, winners: Int = 1)
        -> ScheduledDraw {
        ScheduledDraw(drawId: Fixtures.exampleDrawId, room: "lobby", at: at, createdAt: H.epochOrigin,
                      seed: Fixtures.exampleSeed, entrants: Fixtures.samplePlayers, warnings: [],
                      schedule: H.schedule, winners: winners, reveal: reveal, sources: H.sources)
    }

    // MARK: RFC 3339

    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2030-01-31T18:00:00Z", 1_896_112_800_000.0),
        ("2030-01-31T18:00:00.25Z", 1_896_112_800_250.0),
        ("2030-01-31t18:00:00.123456789z", 1_896_112_800_123.0),
        ("2030-01-31T19:30:00+01:30", 1_896_112_800_000.0),
        ("2030-01-31T16:00:00-02:00", 1_896_112_800_000.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000.0),
        ("2016-12-31T23:59:60Z", 1_483_228_800_000.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799_000.0),
        ("1969-12-31T23:59:59Z", -1_000.0),
        ("0000-01-01T00:00:00Z", -62_167_219_200_000.0),
    ])
    func readsRFC3339(text: String, ms: Double) {
        #expect(RFC3339Time.epochMs(text) == ms)
    }

    @Test(arguments: [
        "", "tomorrow", "2030-01-31", "2030-01-31 18:00:00Z", "2030-01-31T18:00:00", "2030-1-31T18:00:00Z",
        "2030-02-29T00:00:00Z", "2030-13-01T00:00:00Z", "2030-01-32T00:00:00Z", "2030-01-31T24:00:00Z",
        "2030-01-31T18:60:00Z", "2030-01-31T18:00:61Z", "2030-01-31T18:00:00.Z", "2030-01-31T18:00:00+1:00",
        "2030-01-31T18:00:00+24:00", "2030-01-31T18:00:00Zjunk", "+2030-01-31T18:00:00Z",
        "99999-01-31T18:00:00Z", "٢٠٣٠-01-31T18:00:00Z",
        "2030-01-31T18:00:00." + String(repeating: "9", count: 60) + "Z",
    ])
    func refusesWhatIsNotOne(text: String) {
        #expect(RFC3339Time.epochMs(text) == nil, "\(text)")
    }

    /// The length cap (64 bytes) at its edge: a long fraction is still a time up to the cap, and
    /// one byte past it is refused before any digit is read.
    @Test func readsUpToTheLengthCapAndNotPastIt() {
        let atCap = "2030-01-31T18:00:00." + String(repeating: "9", count: 43) + "Z"
        #expect(atCap.utf8.count == 64)
        #expect(RFC3339Time.epochMs(atCap) == 1_896_112_800_999)
        #expect(RFC3339Time.epochMs("2030-01-31T18:00:00." + String(repeating: "9", count: 44) + "Z") == nil)
    }

    @Test func writesUTCBack() {
        #expect(RFC3339Time.text(epochMs: 1_896_112_800_250) == "2030-01-31T18:00:00.250Z")
        #expect(RFC3339Time.text(epochMs: 0) == "1970-01-01T00:00:00.000Z")
        #expect(RFC3339Time.text(epochMs: -1) == nil && RFC3339Time.text(epochMs: .infinity) == nil)
        #expect(RFC3339Time.text(epochMs: 1e300) == nil, "no trap converting a huge time")
    }

    // MARK: The window

    @Test func timesOutsideTheWindowAreRefusedWithTheirReason() {
        let w = ScheduleWindow(minLeadMs: 2_000, maxAheadMs: 86_400_000, graceMs: 300_000)
        let now = H.epochOrigin
        #expect(w.refusal(at: now - 1, now: now) == .inThePast)
        #expect(w.refusal(at: now, now: now) == .inThePast)
        #expect(w.refusal(at: now + 1_999, now: now) == .tooSoon(minLeadMs: 2_000))
        #expect(w.refusal(at: now + 2_000, now: now) == nil)
        #expect(w.refusal(at: now + 86_400_000, now: now) == nil)
        #expect(w.refusal(at: now + 86_400_001, now: now) == .tooFarAhead(maxAheadMs: 86_400_000))
        #expect(w.refusal(at: .nan, now: now) == .unreadableTime)
        #expect(ScheduleRefusal.tooFarAhead(maxAheadMs: 30 * 86_400_000).message.contains("30 days"))
    }

    @Test func aDrawIsStartedWithinTheGraceAndMissedPastIt() {
        let w = ScheduleWindow(minLeadMs: 2_000, maxAheadMs: 86_400_000, graceMs: 300_000)
        let at = H.epochOrigin + 60_000
        #expect(w.due(at: at, now: at - 1_500) == .wait(ms: 1_500))
        #expect(w.due(at: at, now: at) == .startNow)
        #expect(w.due(at: at, now: at + 300_000) == .startNow, "a restart 5 minutes late still starts it")
        #expect(w.due(at: at, now: at + 300_001) == .missed)
    }

    // MARK: The commitment and the start

    @Test func theCommitmentPinsTheSeedAndTheEntrants() {
        let draw = Self.draw()
        let c = draw.commitment
        let plan = draw.plan()
        #expect(c.seedHash == Fixtures.exampleSeed.commitment && c.seedHash == plan.commitment)
        #expect(c.entrantsHash == EntrantsEncoding.hash(Fixtures.samplePlayers) && c.entrantsHash == plan.entrantsHash)
        #expect(c.entrantCount == Fixtures.samplePlayers.count && c.drawId == plan.drawId && c.at == draw.at)
        #expect(plan == DrawPlan.make(drawId: Fixtures.exampleDrawId, entrants: Fixtures.samplePlayers,
                                      seed: Fixtures.exampleSeed, schedule: H.schedule, revealEachWinner: true),
                "exactly the plan any verifier recomputes from the revealed seed")
    }

    @Test func aScheduledDrawStartsFromItsCommittedInputsWithoutLoading() {
        var h = H(records: true)
        let draw = Self.draw()
        let effects = h.feed(.scheduledDue(draw, at: H.at(60_000)))
        #expect(effects.labels == ["write start"], "no loading: the players were frozen at scheduling")
        guard case .write(.started(let record))? = effects.first else { Issue.record("no start write"); return }
        #expect(record.plan == draw.plan() && record.createdAt == draw.createdAt && record.sources == draw.sources)
        #expect(h.written(.started(record), at: 60_010).labels.first == "publish started")
        #expect(!h.session.canStart)
        #expect(h.feed(.scheduledDue(draw, at: H.at(60_020))).isEmpty, "busy: nothing")
    }

    @Test func aScheduledDrawKeepsTheRevealModeItWasScheduledWith() {
        var h = H(records: false, winners: 2)
        let draw = Self.draw(reveal: .eachByHost, winners: 2)
        _ = h.feed(.scheduledDue(draw, at: H.at(0)))
        #expect(h.session.configuration.planner.reveal == .eachByHost)
    }

    @Test func aCancelledOrMissedDrawIsRecordedStoppedWithItsSeed() {
        let draw = Self.draw()
        let writes = draw.unrunRecord(reason: ScheduledDraw.cancelledReason, at: H.epochOrigin + 5)
        #expect(writes == [
            .started(NewDrawRecord(room: "lobby", plan: draw.plan(), sources: H.sources, createdAt: H.epochOrigin,
                                   startedAt: H.epochOrigin + 5)),
            .finish(drawId: draw.drawId, ending: .aborted(reason: "cancelled"), finishedAt: H.epochOrigin + 5,
                    seed: Fixtures.exampleSeed),
        ])
    }
}
