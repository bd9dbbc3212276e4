import DrawCore
import Testing

/// Picks must be uniform over entrants. Fixed seeds make the statistic deterministic: the test
/// either always passes or always fails for a given implementation.
struct UniformityTests {
    @Test(arguments: [2, 4, 7, 10])
    func chiSquareOverFixedSeeds(entrants n: Int) {
        let players = (0..<n).map {
            Player(userId: $0, name: "p\($0)", username: "u\($0)", regDate: CalendarDate(iso: "2020-01-01")!, isVoid: false)
        }
        var counts = Array(repeating: 0, count: n)
        let draws = 2_000
        for s in 0..<draws {
            var bytes = Array(repeating: UInt8(0), count: 32)
            bytes[0] = UInt8(s & 0xff); bytes[1] = UInt8(s >> 8); bytes[31] = 0x5a
            let plan = DrawPlan.make(drawId: "chi-\(s)", entrants: players, seed: Seed(bytes: bytes)!, schedule: .original)
            for r in plan.rounds { counts[r.pickIndex] += 1 }
        }
        let total = Double(draws * 10)
        let expected = total / Double(n)
        let chi2 = counts.reduce(0.0) { $0 + pow2(Double($1) - expected) / expected }
        // Critical values at p = 0.001 for n-1 degrees of freedom.
        let critical: [Int: Double] = [2: 10.83, 4: 16.27, 7: 22.46, 10: 27.88]
        #expect(chi2 < critical[n]!, "chi-square \(chi2) for counts \(counts)")
    }

    private func pow2(_ x: Double) -> Double { x * x }
}
