@testable import DrawCore
import Testing

/// Scheduled draws committed to a beacon round (docs/FAIRNESS.md §10): R is named from the
/// scheduled time at scheduling, and the draw started at its time waits for that very R (not one
/// named from the start), or ends `beacon_unavailable` with its seed when it cannot fetch it.
struct ScheduledBeaconDrawTests {
    typealias H = SessionHarness
    typealias B = DrawSessionBeaconTests

    /// Scheduled for +60 s: on the test chain (one round a second, round 104 at +3 s), with a 2 s
    /// margin, R is the round at +62 s.
    static let roundR: UInt64 = 104 + 59

    static func draw(beacon: DrawBeacon? = ScheduledDraw.beacon(at: H.epochOrigin + 60_000, settings: B.settings))
        -> ScheduledDraw {
        ScheduledDraw(drawId: Fixtures.exampleDrawId, room: "lobby", at: H.epochOrigin + 60_000, createdAt: H.epochOrigin,
                      seed: Fixtures.exampleSeed, entrants: Fixtures.samplePlayers, warnings: [],
                      schedule: H.schedule, winners: 1, reveal: .eachRunningOn, sources: H.sources, beacon: beacon)
    }

    @Test func roundRIsTheFirstPublishedTheMarginAfterTheScheduledTimeNotAfterScheduling() {
        let beacon = ScheduledDraw.beacon(at: H.epochOrigin + 60_000, settings: B.settings)
        #expect(beacon == DrawBeacon(chainHash: B.chain.hash, round: Self.roundR, roundAtMs: H.epochOrigin + 62_000))
        #expect(ScheduledDraw.beacon(at: H.epochOrigin + 60_001, settings: B.settings)?.round == Self.roundR + 1)
        // FAIRNESS.md §9.1's quicknet example: a draw scheduled for 2026-11-27 12:00:00 UTC.
        let quicknet = BeaconChain(hash: String(repeating: "5", count: 64), genesisSeconds: 1_692_803_367, periodSeconds: 3)!
        let settings = BeaconSettings(chain: quicknet, marginMs: 2_000)!
        #expect(ScheduledDraw.beacon(at: 1_795_780_800_000, settings: settings)?.round == 34_325_813)
        // A chain too slow for a live draw's countdown names no round a schedule could wait for.
        let slow = BeaconChain(hash: String(repeating: "5", count: 64), genesisSeconds: 0, periodSeconds: 3_600)!
        #expect(ScheduledDraw.beacon(at: 1_000, settings: BeaconSettings(chain: slow)!) == nil)
    }

    @Test func theCommitmentPublishesRoundRWithoutValues() {
        let draw = Self.draw(beacon: DrawBeacon(chainHash: B.chain.hash, round: Self.roundR, roundAtMs: H.epochOrigin + 62_000,
                                                value: B.round(Self.roundR)))
        #expect(draw.commitment.beacon == DrawBeacon(chainHash: B.chain.hash, round: Self.roundR,
                                                     roundAtMs: H.epochOrigin + 62_000), "R's values never come from scheduling")
        #expect(Self.draw(beacon: nil).commitment.beacon == nil)
    }

    @Test func atItsTimeTheDrawWaitsForTheCommittedRoundWithTheCountdownStretchedFromTheStart() {
        var h = H(records: false, beacon: B.settings)
        let draw = Self.draw()
        let effects = h.feed(.scheduledDue(draw, at: H.at(60_100)))
        guard case .running(let plan, _, _) = h.session.visible else { Issue.record("no draw"); return }
        #expect(plan.beacon == draw.beacon && plan.isAwaitingBeacon, "the R committed at scheduling, not one from now")
        #expect(plan.schedule.leadMs == 1_900 + BeaconSettings.fetchAllowanceMs, "stretched at start, to R's time")
        #expect(effects.labels == ["publish started", "wake 62000"])
        #expect(h.timer(at: 62_000).labels == ["fetch beacon \(Self.roundR)", "wake 67000"])
        let fetched = h.feed(.beaconFetched(drawId: plan.drawId, .success(B.round(Self.roundR)), at: H.at(62_100)))
        #expect(fetched.labels == ["wake 63000"], "round 1 at R plus the fetch allowance")
        guard case .running(let resolved, _, _) = h.session.visible else { Issue.record("no draw"); return }
        #expect(resolved == draw.plan(startedAtMs: H.at(60_100).epochMs).resolved(with: B.round(Self.roundR)))
    }

    @Test(arguments: [
        ("no beacon configured now", nil as BeaconSettings?),
        ("another chain configured now", BeaconSettings(chain: BeaconChain(hash: String(repeating: "f", count: 64),
                                                                             genesisSeconds: 0, periodSeconds: 1)!)),
    ])
    func aDrawCommittedToRCannotRunWithoutItsBeaconAndEndsWithItsSeed(_ why: String, _ settings: BeaconSettings?) {
        var h = H(records: false, beacon: settings)
        _ = h.feed(.scheduledDue(Self.draw(), at: H.at(60_000)))
        let ended = h.timer(at: 62_000)
        #expect(ended.labels == ["cancel wake", "publish aborted beacon_unavailable after 0"], "\(why)")
        #expect(h.session.phase == .idle)
    }

    @Test func aDrawStartedAfterRoundRWasPublishedEndsRatherThanShowAKnownRound() {
        var h = H(records: false, beacon: B.settings)
        _ = h.feed(.scheduledDue(Self.draw(), at: H.at(62_500)))
        #expect(h.timer(at: 62_500).labels == ["cancel wake", "publish aborted beacon_unavailable after 0"])
    }

    @Test func aSeedOnlyScheduleStaysSeedOnlyOnAServerWithABeacon() {
        var h = H(records: false, beacon: B.settings)
        let draw = Self.draw(beacon: nil)
        _ = h.feed(.scheduledDue(draw, at: H.at(60_000)))
        guard case .running(let plan, _, _) = h.session.visible else { Issue.record("no draw"); return }
        #expect(plan.beacon == nil && plan == draw.plan())
    }

    @Test func anUnrunBeaconScheduleIsRecordedWithItsRoundAndNoValues() {
        let draw = Self.draw()
        guard case .started(let record)? = draw.unrunRecord(reason: ScheduledDraw.cancelledReason, at: H.epochOrigin + 5).first
        else { Issue.record("no start write"); return }
        #expect(record.plan.beacon == draw.beacon && record.plan.isAwaitingBeacon)
    }
}
