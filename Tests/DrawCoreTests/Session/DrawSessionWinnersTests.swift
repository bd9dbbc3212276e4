import DrawCore
import Testing

/// One reveal per winner (docs/FAIRNESS.md §5a) and redraws (§5b) in the session: each winner's
/// flips, its `winner` message, the pause or the host's go, and a redraw as a draw of its own.
struct DrawSessionWinnersTests {
    typealias H = SessionHarness
    static let pauseMs = UInt64(DrawSession.winnerPauseMs)

    /// Feeds every due wake-up from `ms` until the session asks for none (or for a write),
    /// answering writes at once; returns every effect in order.
    static func runOn(_ h: inout H, from ms: UInt64, until stop: UInt64 = 60_000) -> [DrawEffect] {
        var all: [DrawEffect] = []
        var due: UInt64? = ms
        while let t = due, t <= stop {
            let effects = h.timer(at: t)
            all += effects
            due = nil
            for e in effects {
                if case .wake(let at) = e { due = at / H.ms }
                if case .write(let w) = e, case .finish = w { all += h.written(w, at: t); due = nil }
            }
        }
        return all
    }

    @Test func threeWinnersRunOnEachWithItsOwnFlipsAndOneRevealEach() {
        var h = H(records: true, winners: 3)
        let plan = h.started(at: 10)
        #expect(plan.revealsEachWinner && plan.rounds.count == 3 * H.schedule.rounds)
        let effects = Self.runOn(&h, from: 110)
        #expect(effects.events.compactMap { if case .winner(_, let s, _, _) = $0 { s } else { nil } } == [1, 2, 3])
        let labels = effects.labels.filter { $0.hasPrefix("publish") }
        #expect(labels == ["publish round 1", "publish round 2", "publish round 3", "publish round 4",
                           "publish winner 1 then auto",
                           "publish round 5", "publish round 6", "publish round 7", "publish round 8",
                           "publish winner 2 then auto",
                           "publish round 9", "publish round 10", "publish round 11", "publish round 12",
                           "publish winner 3 last", "publish finished"])
        // Winner 2's first flip comes the pause plus the lead after winner 1's reveal (at 510).
        let wakes = effects.compactMap { if case .wake(let at) = $0 { at / H.ms } else { nil } }
        #expect(wakes.contains(510 + Self.pauseMs + 100))
        // Every flip is recorded, winner 2's and 3's too, under its round number across the draw.
        #expect(effects.writes.compactMap { if case .round(_, let r, _) = $0 { r } else { nil } } == Array(1...12))
        // Each winner's last flip shows its slot.
        for slot in 1...3 { #expect(plan.rounds[slot * 4 - 1].pickIndex == plan.winnerPicks[slot - 1].pickIndex) }
    }

    @Test func theHostAdvancesFromOneWinnerToTheNext() {
        var h = H(records: false, winners: 3, reveal: .eachByHost)
        let plan = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 410, by: 100) { _ = h.timer(at: ms) }
        let revealed = h.timer(at: 510)
        #expect(revealed.labels == ["publish winner 1 then host", "wake \(510 + UInt64(DrawSession.hostWaitLimitMs))"])
        #expect(h.session.isAwaitingHost)
        #expect(h.session.revealProgress == RevealProgress(slot: 1, slotStartedAt: H.at(10).epochMs, revealed: 1,
                                                           awaitingHost: true))
        // An early wake-up (the wait's limit re-armed) shows nothing.
        #expect(h.timer(at: 900).events.isEmpty)
        let next = h.feed(.nextWinnerRequested(at: H.at(5_000)))
        #expect(next.labels == ["publish next 2", "wake 5100"])
        #expect(next.events == [.nextWinner(plan, slot: 2, startsAt: H.at(5_000).epochMs)])
        #expect(!h.session.isAwaitingHost)
        #expect(h.feed(.nextWinnerRequested(at: H.at(5_001))).isEmpty, "only while the draw waits for it")
        #expect(h.timer(at: 5_100).labels == ["publish round 5", "wake 5200"])
        #expect(h.session.revealProgress?.slot == 2 && h.session.revealProgress?.revealed == 1)
    }

    @Test func aHostWhoLeftDoesNotHoldTheRoomForEver() {
        var h = H(records: false, winners: 2, reveal: .eachByHost)
        _ = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 510, by: 100) { _ = h.timer(at: ms) }
        let limit = 510 + UInt64(DrawSession.hostWaitLimitMs)
        #expect(h.timer(at: limit).labels == ["publish next 2", "wake \(limit + 100)"])
    }

    @Test func abortingWhileWaitingForTheHostRevealsTheSeedWithTheFlipsShown() {
        var h = H(records: false, winners: 2, reveal: .eachByHost)
        let plan = h.started(at: 10)
        for ms in stride(from: UInt64(110), through: 510, by: 100) { _ = h.timer(at: ms) }
        #expect(h.feed(.abort(reason: "test", at: H.at(600))).events == [.aborted(plan, roundsShown: 4, reason: "test")])
    }

    @Test func togetherKeepsTheOldDrawOfSeveralWinners() {
        var h = H(records: false, winners: 3, reveal: .together)
        let plan = h.started(at: 10)
        #expect(!plan.revealsEachWinner && plan.rounds.count == 4)
        let labels = Self.runOn(&h, from: 110).labels.filter { $0.hasPrefix("publish") }
        #expect(labels == ["publish round 1", "publish round 2", "publish round 3", "publish round 4", "publish finished"])
    }

    @Test func oneWinnerIsOneRevealAsAlways() {
        var h = H(records: false)
        let plan = h.started(at: 10)
        #expect(!plan.revealsEachWinner && plan.rounds.count == 4 && h.session.revealProgress == nil)
    }

    @Test func aRedrawIsANewDrawOfOneWinnerAmongThoseNoSlotDrew() throws {
        var h = H(records: true, winners: 2)
        let first = h.started(at: 10)
        _ = Self.runOn(&h, from: 110)
        let removed = try #require(first.winningPlayers.first)
        guard case .success(let decided) = RedrawLink.make(redrawing: first, removing: removed.userId) else {
            Issue.record("a winner can be redrawn"); return
        }
        let drawn = Set(first.winnerPicks.map(\.player))
        #expect(decided.players.players == first.entrants.filter { !drawn.contains($0) })
        #expect(decided.link.kept == first.winningPlayers.filter { $0 != removed })
        let effects = h.feed(.redrawRequested(decided.link, decided.players, at: H.at(20_000)))
        guard case .write(.started(let record))? = effects.first else { Issue.record("the redraw is recorded first"); return }
        #expect(record.plan.redrawOf == decided.link && record.plan.winners == 1)
        #expect(record.plan.entrants == decided.players.players && record.plan.drawId != first.drawId)
        #expect(record.plan.commitment != first.commitment, "its own seed")
        #expect(!record.plan.entrants.contains(removed))
    }

    /// Another node of a cluster has only the finished draw's record: the same redraw from it,
    /// and none from a record that did not finish.
    @Test func aRedrawFromTheRecordIsTheRedrawFromThePlan() throws {
        var h = H(records: false, winners: 2)
        let plan = h.started(at: 10)
        let removed = try #require(plan.winningPlayers.last)
        let finished = DrawRecordTests.record(.finished, shown: plan.rounds.count, plan: plan)
        let fromPlan = try RedrawLink.make(redrawing: plan, removing: removed.userId).get()
        let fromRecord = try RedrawLink.make(redrawing: finished, removing: removed.userId).get()
        #expect(fromRecord.link == fromPlan.link && fromRecord.players == fromPlan.players)
        let stopped = DrawRecordTests.record(.aborted, shown: 2, plan: plan)
        #expect(RedrawLink.make(redrawing: stopped, removing: removed.userId).failureValue == .notFinished)
    }

    @Test func aRedrawRefusesSomeoneWhoDidNotWinAndAnEmptyList() {
        var h = H(records: false, winners: 4)
        let plan = h.started(at: 10)
        let loser = plan.winnerPicks.first { !$0.isWinner }?.player
        if let loser {
            #expect(RedrawLink.make(redrawing: plan, removing: loser.userId).failureValue == .notAWinner(userId: loser.userId))
        }
        let winner = plan.winningPlayers[0]
        #expect(RedrawLink.make(redrawing: plan, removing: winner.userId).failureValue == .nobodyLeft,
                "4 winners of 4 entrants: nobody is left")
    }

    @Test func aSecondRedrawKeepsTheFirstReplacementAndExcludesIt() throws {
        var h = H(records: false, winners: 2, reveal: .together)
        let first = h.started(at: 10)
        let list = MergeResult(players: Fixtures.samplePlayers + Fixtures.samplePlayers.map {
            Player(userId: $0.userId + 1000, name: $0.name + " 2", username: $0.username, regDate: $0.regDate, isVoid: false)
        }, warnings: [])
        let base = DrawPlan.make(drawId: first.drawId, entrants: list.players, seed: first.seed, schedule: H.schedule, winners: 2)
        let a = base.winningPlayers[0]
        guard case .success(let one) = RedrawLink.make(redrawing: base, removing: a.userId) else { return }
        let redraw = DrawPlan.make(drawId: "r1", entrants: one.players.players, seed: first.seed, schedule: H.schedule,
                                   redrawOf: one.link)
        guard let replacement = redraw.winningPlayers.first, let b = base.winningPlayers.dropFirst().first else { return }
        guard case .success(let two) = RedrawLink.make(redrawing: redraw, removing: b.userId) else {
            Issue.record("a winner kept by the redraw can be removed too"); return
        }
        #expect(two.link.kept == [replacement])
        #expect(!two.players.players.contains(replacement) && !two.players.players.contains(a) && !two.players.players.contains(b))
        #expect(one.link.number == 1 && two.link.number == 2, "each redraw of the giveaway is numbered")
    }

    /// Issue 37: a host redrew "no-shows" 7 times in a row until the person it wanted won. A
    /// giveaway has at most `limit` redraws (the operator's `--max-redraws`); 0 switches them off;
    /// a number from a record that would overflow is past any limit, not a wrap to a small one.
    @Test func redrawsOfAGiveawayStopAtTheLimit() throws {
        var h = H(records: false, winners: 1, reveal: .together)
        let first = h.started(at: 10)
        let list = MergeResult(players: (1...40).map {
            Player(userId: $0, name: "P\($0)", username: "p\($0)", regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false)
        }, warnings: [])
        let base = DrawPlan.make(drawId: "d0", entrants: list.players, seed: first.seed, schedule: H.schedule, winners: 1)
        var plan = base
        for n in 1...3 {
            let decided = try RedrawLink.make(redrawing: plan, removing: plan.winningPlayers[0].userId, limit: 3).get()
            #expect(decided.link.number == n && decided.link.drawId == plan.drawId)
            plan = DrawPlan.make(drawId: "d\(n)", entrants: decided.players.players, seed: first.seed, schedule: H.schedule,
                                 redrawOf: decided.link)
        }
        let winner = plan.winningPlayers[0].userId
        #expect(RedrawLink.make(redrawing: plan, removing: winner, limit: 3).failureValue == .limitReached(max: 3))
        #expect(RedrawLink.make(redrawing: plan, removing: winner, limit: 4).failureValue == nil)
        #expect(RedrawLink.make(redrawing: plan, removing: winner).failureValue == nil, "no limit given: none")
        #expect(RedrawLink.make(redrawing: base, removing: base.winningPlayers[0].userId, limit: 0).failureValue
                == .limitReached(max: 0), "0: redraws are off")
        #expect(RedrawLinkRefusalText.off == RedrawRefusal.limitReached(max: 0).message)

        let huge = RedrawLink(drawId: "d9", removed: plan.winningPlayers[0], kept: [], number: Int.max)
        let last = DrawPlan.make(drawId: "dx", entrants: list.players, seed: first.seed, schedule: H.schedule, redrawOf: huge)
        #expect(RedrawLink.make(redrawing: last, removing: last.winningPlayers[0].userId, limit: 100).failureValue
                == .limitReached(max: 100))
        #expect(RedrawLink(drawId: "d", removed: huge.removed, kept: [], number: nil).ordinal == 1, "unnumbered: the first")
        #expect(RedrawLink(drawId: "d", removed: huge.removed, kept: [], number: -5).ordinal == 1)
    }
}

private enum RedrawLinkRefusalText {
    static let off = "Redraws are switched off on this server."
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
