import DrawCore
import DrawPresentation
import Foundation
import Testing

/// A record body read back (`RecordBodyDecoder`): whatever `RecordMessages.record` wrote comes
/// back as the record it was written from, and anything else is refused.
struct RecordBodyDecoderTests {
    typealias R = RecordMessagesTests

    static let failed = DrawRecord(drawId: "ffeeddccbbaa99887766554433221100", room: "team-a", status: .failed,
                                   createdAt: 900.5, startedAt: nil, finishedAt: 1_000.125, sources: R.sources,
                                   entrants: [], warnings: [.duplicateName(userId: 7, firstUserId: 3)], commitment: nil,
                                   entrantsHash: nil, schedule: nil, plannedRounds: [], plannedDrawn: nil, storedSeed: nil,
                                   failure: DrawFailure(code: "source_unreachable", message: "users: \"timeout\" ✗"),
                                   abortReason: nil)

    static let decelerating = DrawPlan.make(
        drawId: Fixtures.plan.drawId, entrants: Fixtures.players, warnings: StoreLikeWarnings.all, seed: Fixtures.seed,
        schedule: RoundSchedule(rounds: 7, pace: .decelerating(firstMs: 100, lastMs: 900), countdownMs: 3_000)!)

    static let threeWinners = DrawPlan.make(drawId: Fixtures.voidPlan.drawId, entrants: Fixtures.players,
                                            seed: Fixtures.voidPlan.seed, schedule: .original, winners: 3)

    /// drand quicknet's round 3, and the worked example's draw committed to it (FAIRNESS.md §9).
    static let quicknet3 = BeaconRound(
        round: 3, randomnessHex: "7ef4621ace1c6da4eb2eee7cd901f81385bca5b189771ec0f08d0d2566dd1a21",
        signatureHex: "b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4deaa027075d860823e49477b93c72bd64")!
    static let awaitingBeacon = DrawPlan.make(
        drawId: Fixtures.plan.drawId, entrants: Fixtures.players, seed: Fixtures.seed, schedule: .original,
        beacon: DrawBeacon(chainHash: "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971", round: 3,
                           roundAtMs: 1_692_803_373_000))
    static let beaconDraw = awaitingBeacon.resolved(with: quicknet3)!

    static var everyKind: [DrawRecord] {
        [R.record(.finished, shown: 10), R.record(.finished, shown: 10, plan: Fixtures.voidPlan),
         R.record(.finished, shown: 10, plan: threeWinners), R.record(.running, shown: 0), R.record(.running, shown: 4),
         R.record(.running, shown: 4, plan: decelerating), R.record(.aborted, shown: 2),
         R.record(.interrupted, shown: 5, plan: threeWinners), R.record(.interrupted, shown: 0, plan: decelerating), failed,
         R.record(.finished, shown: 10, plan: beaconDraw), R.record(.running, shown: 0, plan: awaitingBeacon),
         R.record(.aborted, shown: 0, plan: awaitingBeacon)]
    }

    @Test(arguments: everyKind)
    func aBodyReadsBackAsItsRecord(_ record: DrawRecord) throws {
        let decoded = try #require(RecordBodyDecoder.decode(RecordMessages.record(record)))
        #expect(decoded == record)
        #expect(RecordMessages.record(decoded) == RecordMessages.record(record), "and writes the same bytes again")
    }

    static let malformed: [String] = [
        "", "null", "[]", #"{"drawId":"x"}"#, "{not json",
    ]

    @Test(arguments: malformed)
    func notARecordIsRefused(_ body: String) {
        #expect(RecordBodyDecoder.decode(Array(body.utf8)) == nil)
    }

    /// One field of a real body changed at a time: each is refused, not guessed at.
    @Test(arguments: [
        (#""status":"running""#, #""status":"paused""#),
        (#""round":2"#, #""round":3"#),
        (#""index":3,"userId":182"#, #""index":1,"userId":182"#),
        (#""regDate":"2020-10-19""#, #""regDate":"2020-13-19""#),
        (#""offsetsMs":[400,800,"#, #""offsetsMs":[400,900,"#),
        (#""code":"unknown_user""#, #""code":"strange""#),
        (#""createdAt":900.500"#, #""createdAt":"900.5""#),
    ])
    func aChangedFieldIsRefused(_ change: (String, String)) throws {
        let body = Fixtures.text(RecordMessages.record(R.record(.running, shown: 4)))
        #expect(body.contains(change.0), "the change applies")
        #expect(RecordBodyDecoder.decode(Array(body.replacingOccurrences(of: change.0, with: change.1).utf8)) == nil)
    }

    @Test func aRunningBodyCarryingASeedIsRefused() throws {
        let body = Fixtures.text(RecordMessages.record(R.record(.running, shown: 4)))
        #expect(body.contains(#""seed":null"#))
        let leaked = body.replacingOccurrences(of: #""seed":null"#, with: #""seed":"\#(Fixtures.seed.hex)""#)
        #expect(RecordBodyDecoder.decode(Array(leaked.utf8)) == nil)
    }
}

/// Every kind of merge warning, so each one's message is read back.
enum StoreLikeWarnings {
    static let all: [MergeWarning] = [.unknownUser(userId: 999), .duplicateEntry(userId: 22), .duplicateUser(userId: 4),
                                      .duplicateName(userId: 7, firstUserId: 3)]
}
