import DrawCore
import DrawPresentation
import Foundation
import Testing

/// Issue 36, finding 7, for record bodies read back from Redis (`RecordBodyDecoder`, the
/// takeover's input): every number in a body is whatever the store holds. Out-of-range times,
/// offsets whose gaps overflow and winner slots past the rounds are refused (`nil`), never a
/// trap; whatever is accepted can be written again (`RecordMessages.record`).
struct HostileRecordBodyTests {
    typealias R = RecordMessagesTests

    static let eachWinner = DrawPlan.make(drawId: Fixtures.plan.drawId, entrants: Fixtures.players, seed: Fixtures.seed,
                                          schedule: .original, winners: 2, revealEachWinner: true)

    /// A running draw revealing each winner: its rounds carry `winner` (the slot) and a round
    /// numbered within it, the numbers the decoder multiplies.
    static var eachWinnerRecord: DrawRecord {
        let plan = eachWinner, base = R.record(.running, shown: 12, plan: plan)
        let rounds = plan.rounds.map {
            RecordedRound(round: $0.round, offsetMs: $0.offsetMs, pickIndex: $0.pickIndex, player: $0.player,
                          sentAt: 1000 + Double($0.offsetMs), slot: $0.slot, flip: $0.flip)
        }
        return DrawRecord(drawId: plan.drawId, room: base.room, status: .running, createdAt: 900.5, startedAt: 1000,
                          finishedAt: nil, sources: R.sources, entrants: plan.entrants, warnings: plan.warnings,
                          commitment: plan.commitment, entrantsHash: plan.entrantsHash, schedule: plan.schedule,
                          plannedRounds: rounds, plannedDrawn: plan.outcome.drawn, storedSeed: plan.seed, failure: nil,
                          abortReason: nil, winners: plan.winners, plannedWinnerPicks: plan.winnerPicks, revealsEachWinner: true)
    }

    static var bodies: [String] {
        [R.record(.running, shown: 4), R.record(.interrupted, shown: 5, plan: RecordBodyDecoderTests.threeWinners),
         eachWinnerRecord, R.record(.finished, shown: 10, plan: RecordBodyDecoderTests.beaconDraw),
         R.record(.running, shown: 4, plan: RecordBodyDecoderTests.decelerating)].map { Fixtures.text(RecordMessages.record($0)) }
    }

    static let hostile = ["-1e300", "1e300", "-1", "0", "1e309", "9223372036854775807", "-9223372036854775808",
                          "18446744073709551616", "2.5", #""NaN""#, "null", "true", "[]", "{}", #""12""#]

    /// The number literals of a JSON text (after `:`, `[` or `,`; before `,`, `]` or `}`).
    static func numberRanges(_ text: String) -> [Range<String.Index>] {
        text.matches(of: /[:\[,](-?[0-9]+(?:\.[0-9]+)?)(?=[,\]}])/).map { $0.output.1.startIndex..<$0.output.1.endIndex }
    }

    /// The cases that trapped before: each is refused.
    @Test(arguments: [
        (#""createdAt":900.500"#, #""createdAt":-1e300"#),
        (#""finishedAt":null"#, #""finishedAt":1e300"#),
        (#""finishOffsetMs":"#, #""finishOffsetMs":-9223372036854775808,"x":"#),
        (#""winner":2"#, #""winner":9223372036854775807"#),
        (#""round":1,"#, #""round":-9223372036854775807,"#),
    ])
    func aNumberOutOfRangeIsRefused(_ change: (String, String)) throws {
        let body = Fixtures.text(RecordMessages.record(Self.eachWinnerRecord))
        #expect(body.contains(change.0), "the change applies")
        let changed = body.replacingOccurrences(of: change.0, with: change.1)
        #expect(RecordBodyDecoder.decode(Array(changed.utf8)) == nil, "\(change.1)")
    }

    /// Seeded, bounded: 1,500 bodies with one number replaced by a hostile value, and the same
    /// bodies cut short. Nothing traps; a body that still decodes writes back and reads again.
    @Test func fuzzedNumbersNeverTrapTheDecoder() throws {
        var rng = SeededNumbers(seed: 7)
        let bodies = Self.bodies
        for body in bodies { #expect(RecordBodyDecoder.decode(Array(body.utf8)) != nil, "the unchanged body decodes") }
        var refused = 0
        for _ in 0..<1_500 {
            let body = bodies[rng.below(bodies.count)]
            let ranges = Self.numberRanges(body)
            let range = ranges[rng.below(ranges.count)]
            let changed = body.replacingCharacters(in: range, with: Self.hostile[rng.below(Self.hostile.count)])
            if let record = RecordBodyDecoder.decode(Array(changed.utf8)) {
                #expect(RecordBodyDecoder.decode(RecordMessages.record(record)) == record, "\(changed)")
            } else {
                refused += 1
            }
            #expect(RecordBodyDecoder.decode(Array(changed.utf8).prefix(rng.below(changed.utf8.count)).map { $0 }) == nil)
        }
        #expect(refused > 1_000, "most hostile numbers are refused")
    }
}
