import DrawCore
import Testing

/// A room's settings reach its draws through `DrawSession.prepare`: each draw is planned with the
/// planner (schedule, winners) and sources set before it started, never changed while it runs.
struct DrawSessionSettingsTests {
    static let sources = DrawSources(usersURL: "upload:text/plain", lotteryURL: "upload:text/plain")

    @Test func aPreparedDrawFollowsTheRoomsScheduleAndWinners() throws {
        var h = SessionHarness(records: false)
        let schedule = RoundSchedule(rounds: 2, pace: .fixed(intervalMs: 50))!
        let prepared = h.session.prepare(planner: PlanDraw(random: CountingRandom(), schedule: schedule, winners: 3),
                                         sources: Self.sources)
        #expect(prepared)
        let plan = h.started()
        #expect(plan.schedule == schedule && plan.winners == 3)
        #expect(Set(plan.winnerPicks.map(\.pickIndex)).count == 3)
        #expect(h.session.configuration.sources == Self.sources)
    }

    @Test func preparingDuringADrawChangesNothing() {
        var h = SessionHarness(records: false)
        _ = h.started()
        let other = PlanDraw(random: CountingRandom(), schedule: .original, winners: 2)
        let prepared = h.session.prepare(planner: other, sources: Self.sources)
        #expect(!prepared)
        #expect(h.session.configuration.planner.winners == 1)
        #expect(h.session.configuration.sources == SessionHarness.sources)
    }

    @Test func moreWinnersThanEntrantsFailsTheDraw() {
        var h = SessionHarness(records: true)
        let k = SessionHarness.players.players.count + 1
        h.session.prepare(planner: PlanDraw(random: CountingRandom(), schedule: SessionHarness.schedule, winners: k),
                          sources: Self.sources)
        _ = h.start()
        let effects = h.load(at: 5)
        let error = DrawError.tooFewEntrants(entrants: k - 1, winners: k)
        #expect(effects.first == .publish(.failed(error)))
        #expect(error.code == "too_few_entrants")
        #expect(error.message.contains("\(k) winners") && error.message.contains("\(k - 1)"))
        guard case .write(.failed(let record))? = effects.last else {
            Issue.record("the failure is recorded: \(effects)")
            return
        }
        #expect(record.sources == Self.sources && record.failure.code == "too_few_entrants")
        #expect(!h.session.isBusy)
    }
}
