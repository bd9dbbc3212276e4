import DrawCore
import Foundation
import Testing

/// The core's plan against the shared fairness vectors (Tests/vectors/fairness.json): the same
/// file tools/verify_draw.py and the browser verifier are tested against, so the three
/// implementations of docs/FAIRNESS.md cannot drift apart unnoticed.
@Suite struct FairnessVectorTests {
    struct Vectors: Decodable {
        let cases: [Case]
        let picks: [Pick]
    }

    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let drawId: String
        let seed: String
        let entrants: [Entrant]
        let rounds: Int
        /// Absent for a one-winner case.
        let winners: Int?
        /// `"each"` when every winner has its own flips (FAIRNESS.md §5a).
        let reveal: String?
        let expected: Expected
        var testDescription: String { name }
    }

    struct Entrant: Decodable {
        let userId: Int
        let name: String
        let username: String
        let regDate: String
        let void: Bool
        var player: Player {
            Player(userId: userId, name: name, username: username, regDate: CalendarDate(iso: regDate)!, isVoid: void)
        }
    }

    struct Expected: Decodable {
        let picks: [Int]
        let commitment: String
        let entrantsHash: String
        let canonicalEntrants: String
        let drawnIndex: Int
        let outcome: String
        /// Winner slots 1…winners, for a case with `winners`.
        let winnerPicks: [Int]?
    }

    struct Pick: Decodable, CustomTestStringConvertible {
        let seed: String
        let drawId: String
        let round: Int
        let count: Int
        let index: Int
        let block1: Bool
        var testDescription: String { "\(drawId):\(round)" }
    }

    /// Tests/vectors/fairness.json, as bytes, for every suite that reads it.
    static let vectorsFile: Data = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../vectors/fairness.json").standardized
        return try! Data(contentsOf: url)
    }()

    static let vectors = try! JSONDecoder().decode(Vectors.self, from: vectorsFile)

    @Test(arguments: vectors.cases)
    func planMatchesTheVector(_ c: Case) throws {
        let seed = try #require(Seed(hex: c.seed))
        let entrants = c.entrants.map(\.player)
        let schedule = try #require(RoundSchedule(rounds: c.rounds, pace: .fixed(intervalMs: 400)))
        let plan = DrawPlan.make(drawId: c.drawId, entrants: entrants, seed: seed, schedule: schedule,
                                 winners: c.winners ?? 1, revealEachWinner: c.reveal == "each")
        #expect(plan.rounds.map(\.pickIndex) == c.expected.picks)
        // Slot 1 is the last round's pick, so a one-winner plan is what it always was.
        #expect(plan.winnerPicks.map(\.pickIndex) == c.expected.winnerPicks ?? [c.expected.drawnIndex])
        #expect(plan.winnerPicks.map(\.player) == plan.winnerPicks.map { entrants[$0.pickIndex] })
        #expect(plan.commitment == c.expected.commitment)
        #expect(plan.entrantsHash == c.expected.entrantsHash)
        #expect(String(decoding: EntrantsEncoding.canonicalJSON(entrants), as: UTF8.self) == c.expected.canonicalEntrants)
        #expect(plan.outcome.drawn == entrants[c.expected.drawnIndex])
        switch plan.outcome {
        case .winner: #expect(c.expected.outcome == "winner")
        case .noWinner: #expect(c.expected.outcome == "void")
        }
    }

    @Test(arguments: vectors.picks)
    func rejectionSamplingMatchesTheVector(_ p: Pick) throws {
        let seed = try #require(Seed(hex: p.seed))
        #expect(PickDerivation.index(seed: seed, drawId: p.drawId, round: p.round, count: p.count) == p.index)
    }

    @Test func vectorsReachTheSecondHMACBlock() {
        let reached = Self.vectors.picks.contains { $0.block1 }
        #expect(reached)
    }
}
