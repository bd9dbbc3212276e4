@testable import DrawCore
import Testing

/// Round selection (`docs/FAIRNESS.md` §9): round R is the first published at least the margin
/// after the draw is planned, from the chain's genesis and period; no peer number can trap.
struct BeaconChainTests {
    /// drand's quicknet, as `/{hash}/info` gives it.
    static let quicknet = BeaconChain(hash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
                                      genesisSeconds: 1_692_803_367, periodSeconds: 3)!

    @Test func roundTimesFollowGenesisAndPeriod() {
        let c = Self.quicknet
        #expect(c.publicationMs(ofRound: 1) == 1_692_803_367_000)
        #expect(c.publicationMs(ofRound: 2) == 1_692_803_370_000)
        #expect(c.publicationMs(ofRound: 0) == nil, "drand's rounds start at 1")
    }

    /// §9's worked example: planned at 2026-11-27T12:00:00Z (1795780800000 ms), margin 2 s.
    @Test func workedExampleOfTheDocument() {
        let c = Self.quicknet
        let beacon = DrawBeacon.committing(on: c, plannedAtMs: 1_795_780_800_000, marginMs: 2_000)
        #expect(beacon?.round == 34_325_813)
        #expect(beacon?.roundAtMs == 1_795_780_803_000)
        // Half a second later plus one: 12:00:03.0005 is past round 34325813's time, so the next.
        let later = DrawBeacon.committing(on: c, plannedAtMs: 1_795_780_801_000.5, marginMs: 2_000)
        #expect(later?.round == 34_325_814)
        #expect(later?.roundAtMs == 1_795_780_806_000)
    }

    @Test func aRoundExactlyAtTheMarginCounts() {
        let c = BeaconChain(hash: String(repeating: "a", count: 64), genesisSeconds: 1000, periodSeconds: 1)!
        #expect(c.firstRound(publishedAtOrAfter: 1_005_000) == 6)
        #expect(c.firstRound(publishedAtOrAfter: 1_005_000.001) == 7)
        #expect(c.firstRound(publishedAtOrAfter: 10) == 1, "before the genesis: round 1")
    }

    @Test func hostileNumbersAnswerNilInsteadOfTrapping() {
        let c = BeaconChain(hash: String(repeating: "b", count: 64), genesisSeconds: Int64.max / 2, periodSeconds: 3_600)!
        #expect(c.publicationMs(ofRound: UInt64.max) == nil)
        #expect(c.publicationMs(ofRound: 1) == nil, "genesis in seconds too large for milliseconds")
        #expect(c.firstRound(publishedAtOrAfter: .infinity) == nil)
        #expect(c.firstRound(publishedAtOrAfter: .nan) == nil)
        #expect(Self.quicknet.firstRound(publishedAtOrAfter: 1e300) == nil)
        #expect(BeaconChain(hash: "xyz", genesisSeconds: 0, periodSeconds: 3) == nil)
        #expect(BeaconChain(hash: String(repeating: "c", count: 64), genesisSeconds: 0, periodSeconds: 0) == nil)
        #expect(BeaconChain(hash: String(repeating: "c", count: 64), genesisSeconds: 0, periodSeconds: 3_601) == nil)
        #expect(BeaconChain(hash: String(repeating: "c", count: 64), genesisSeconds: -1, periodSeconds: 3) == nil)
    }

    @Test func settingsKeepTheirLimits() {
        let c = Self.quicknet
        #expect(BeaconSettings(chain: c, marginMs: 999) == nil)
        #expect(BeaconSettings(chain: c, marginMs: 60_001) == nil)
        #expect(BeaconSettings(chain: c, waitMs: 99) == nil)
        #expect(BeaconSettings(chain: c, waitMs: 60_001) == nil)
        #expect(BeaconSettings(chain: c, marginMs: 1_000, waitMs: 100) != nil)
    }

    @Test func theCountdownReachesTheRoundPlusTheFetchAllowance() throws {
        let settings = try #require(BeaconSettings(chain: Self.quicknet))
        let beacon = try #require(settings.beacon(plannedAtMs: 1_795_780_800_000))
        let schedule = try #require(settings.schedule(.original, for: beacon, plannedAtMs: 1_795_780_800_000))
        #expect(schedule.countdownMs == 3_000 + BeaconSettings.fetchAllowanceMs)
        #expect(schedule.rounds == 10 && schedule.pace == .fixed(intervalMs: 400))
        // A chain so slow its round is beyond the countdown's limit cannot run a live draw.
        let slow = BeaconChain(hash: String(repeating: "d", count: 64), genesisSeconds: 0, periodSeconds: 3_600)!
        let far = DrawBeacon.committing(on: slow, plannedAtMs: 1_000, marginMs: 2_000)!
        #expect(BeaconSettings(chain: slow)!.schedule(.original, for: far, plannedAtMs: 1_000) == nil)
    }

    /// Choosing a round (`schedule`) and a committed round's start (a scheduled draw's plan)
    /// stretch the countdown by one rule and part only past its limit: the first refuses a round
    /// that far, the second caps the countdown (and the draw waits for the round before round 1).
    @Test func pastTheCountdownsLimitARoundIsRefusedWhenChosenAndTheCountdownCappedWhenCommitted() {
        let limit = RoundSchedule.countdownLimit.upperBound
        let beacon = DrawBeacon(chainHash: Self.quicknet.hash, round: 1, roundAtMs: 100_000)
        let atLimit = Double(100_000 - limit + BeaconSettings.fetchAllowanceMs)  // round 1 due exactly at the limit
        for pastLimit in [BeaconSettings.PastCountdownLimit.refuse, .cap] {
            let schedule = BeaconSettings.stretched(.original, until: beacon, from: atLimit, pastLimit: pastLimit)
            #expect(schedule?.countdownMs == limit, "\(pastLimit)")
        }
        #expect(BeaconSettings.stretched(.original, until: beacon, from: atLimit - 1, pastLimit: .refuse) == nil)
        #expect(BeaconSettings.stretched(.original, until: beacon, from: atLimit - 1, pastLimit: .cap)?.countdownMs == limit)
    }

    /// A beacon whose round is long past (one read back from a record, any finite time) must not
    /// trap the conversion to milliseconds: the countdown is the fetch allowance at least.
    @Test func aRoundLongBeforeThePlanDoesNotTrap() throws {
        let settings = try #require(BeaconSettings(chain: Self.quicknet))
        let past = DrawBeacon(chainHash: Self.quicknet.hash, round: 1, roundAtMs: -1e300)
        let schedule = try #require(settings.schedule(.original, for: past, plannedAtMs: 1_795_780_800_000))
        #expect(schedule.countdownMs == max(RoundSchedule.original.countdownMs, BeaconSettings.fetchAllowanceMs))
    }
}
