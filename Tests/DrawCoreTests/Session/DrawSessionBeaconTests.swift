@testable import DrawCore
import Testing

/// A beacon draw's session (`DrawSession+Beacon`): it waits for round R, fetches it, retries
/// failures until its wait is over, and then either runs on R's randomness or ends
/// `beacon_unavailable` with its seed revealed. Times are milliseconds from the harness's origin.
struct DrawSessionBeaconTests {
    typealias H = SessionHarness
    /// Genesis 100 s before the origin, one round a second: round 104 is at +3000 ms.
    static let chain = BeaconChain(hash: String(repeating: "e", count: 64),
                                   genesisSeconds: Int64(H.epochOrigin / 1000) - 100, periodSeconds: 1)!
    static let settings = BeaconSettings(chain: chain, marginMs: 2_000, waitMs: 5_000)!

    /// A round with consistent values (randomness = SHA-256(signature)).
    static func round(_ r: UInt64, signature: [UInt8] = Array(repeating: 7, count: 48)) -> BeaconRound {
        BeaconRound(round: r, randomness: Hex.decode(SHA256Hex.of(signature))!, signature: signature)!
    }

    /// Starts a beacon draw planned and published at +10 ms.
    static func startedBeaconDraw(records: Bool = true) -> (H, DrawPlan, [DrawEffect]) {
        var h = H(records: records, beacon: settings)
        _ = h.start(at: 0)
        var effects = h.load(at: 10)
        if case .write(let w)? = effects.first, case .started = w { effects = h.written(w, at: 10) }
        guard case .running(let plan, _, _) = h.session.visible else { fatalError("no draw") }
        return (h, plan, effects)
    }

    @Test func theCommitmentNamesTheFirstRoundPastTheMarginAndTheCountdownReachesIt() {
        let (_, plan, effects) = Self.startedBeaconDraw()
        #expect(plan.beacon == DrawBeacon(chainHash: Self.chain.hash, round: 104, roundAtMs: H.epochOrigin + 3_000))
        #expect(plan.isAwaitingBeacon && plan.rounds.isEmpty)
        #expect(plan.schedule.leadMs == 2_990 + BeaconSettings.fetchAllowanceMs, "round 1 no earlier than R plus the allowance")
        #expect(effects.labels == ["publish started", "write started_at", "wake 3000"], "the first wake-up is R's time")
    }

    @Test func theDrawWaitsForRoundRThenRunsOnItsRandomness() {
        var (h, plan, _) = Self.startedBeaconDraw()
        #expect(h.timer(at: 2_999).labels == ["wake 3000"], "an early wake-up fetches nothing")
        #expect(h.timer(at: 3_000).labels == ["fetch beacon 104", "wake 8000"])
        #expect(h.timer(at: 3_050).labels == ["wake 8000"], "one fetch at a time")
        let value = Self.round(104)
        let fetched = h.feed(.beaconFetched(drawId: plan.drawId, .success(value), at: H.at(3_200)))
        #expect(fetched.labels == ["write beacon", "wake 4000"], "recorded, and round 1 keeps its time")
        let resolved = plan.resolved(with: value)!
        #expect(fetched.writes == [.beacon(resolved)])
        #expect(h.timer(at: 4_000).events == [.round(resolved, index: 0, sentAtMs: H.at(4_000).epochMs)])
    }

    @Test func failedFetchesAreRetriedUntilTheWaitIsOverThenTheDrawEndsWithItsSeed() {
        var (h, plan, _) = Self.startedBeaconDraw()
        _ = h.timer(at: 3_000)
        let down = h.feed(.beaconFetched(drawId: plan.drawId, .failure(.unreachable("refused")), at: H.at(3_100)))
        #expect(down.labels == ["wake 3350"])
        #expect(h.timer(at: 3_350).labels == ["fetch beacon 104", "wake 8000"])
        // Garbage: randomness that is not the signature's hash is a failure like any other.
        let forged = BeaconRound(round: 104, randomness: Array(repeating: 1, count: 32), signature: [9, 9])!
        #expect(h.feed(.beaconFetched(drawId: plan.drawId, .success(forged), at: H.at(3_400))).labels == ["wake 3650"])
        _ = h.timer(at: 3_650)
        // Another round is garbage too: it was not the one committed to.
        #expect(h.feed(.beaconFetched(drawId: plan.drawId, .success(Self.round(105)), at: H.at(3_700))).labels == ["wake 3950"])
        _ = h.timer(at: 7_900)
        let ended = h.timer(at: 8_000)
        #expect(ended.labels == ["cancel wake", "publish aborted beacon_unavailable after 0", "write abort"])
        #expect(ended.writes == [.finish(drawId: plan.drawId, ending: .aborted(reason: "beacon_unavailable"),
                                         finishedAt: H.at(8_000).epochMs, seed: plan.seed)])
        #expect(h.session.phase == .idle)
        // The fetch still out answers late: ignored, and no longer owed.
        #expect(h.feed(.beaconFetched(drawId: plan.drawId, .success(Self.round(104)), at: H.at(8_100))).isEmpty)
        #expect(!h.session.hasWork || h.session.outstanding > 0)
    }

    @Test func aSlowBeaconIsGivenUpOnAtTheDeadlineWithoutWaitingForItsAnswer() {
        var (h, plan, _) = Self.startedBeaconDraw(records: false)
        _ = h.timer(at: 3_000)
        #expect(h.timer(at: 8_000).labels == ["cancel wake", "publish aborted beacon_unavailable after 0"])
        #expect(h.session.outstanding == 1, "the fetch is still owed its answer")
        _ = h.feed(.beaconFetched(drawId: plan.drawId, .success(Self.round(104)), at: H.at(9_000)))
        #expect(h.session.outstanding == 0 && !h.session.hasWork)
    }

    @Test func aFailedBeaconWriteAbortsTheDraw() {
        var (h, plan, _) = Self.startedBeaconDraw()
        _ = h.timer(at: 3_000)
        let value = Self.round(104)
        _ = h.feed(.beaconFetched(drawId: plan.drawId, .success(value), at: H.at(3_100)))
        let effects = h.written(.beacon(plan.resolved(with: value)!), failing: true, at: 3_150)
        #expect(effects.labels == ["cancel wake", "publish aborted storage_failure after 0", "write abort"])
    }
}
