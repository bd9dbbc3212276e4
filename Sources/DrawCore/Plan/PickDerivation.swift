import Crypto

/// Derives each round's pick from the seed, exactly as `docs/FAIRNESS.md` specifies.
///
/// For round `r` (1-based) of draw `id`, with `n` entrants:
/// 1. block 0 is HMAC-SHA256(key: seed, message: UTF-8 of "`id`:`r`"); block j ≥ 1 uses the
///    message "`id`:`r`:`j`";
/// 2. each 32-byte block is read as eight big-endian unsigned 32-bit words, in order;
/// 3. the first word `w` with `w < limit`, where `limit = floor(2^32 / n) * n`, gives the index
///    `w mod n` (rejection sampling: words at or above `limit` would favour low indices).
public enum PickDerivation {
    /// The entrant index (0-based) picked in `round`. `count` must be at least 1.
    public static func index(seed: Seed, drawId: String, round: Int, count: Int) -> Int {
        index(seed: seed, drawId: drawId, label: String(round), count: count)
    }

    /// The pick of §4 for a message label other than a round number: a later winner's flip
    /// (`"2.3"`, see `WinnerReveal`). The messages are "`id`:`label`", then "`id`:`label`:`j`".
    public static func index(seed: Seed, drawId: String, label: String, count: Int) -> Int {
        precondition(count >= 1, "a pick needs at least one entrant")
        let n = UInt64(count)
        let limit = (UInt64(1) << 32) / n * n
        let key = SymmetricKey(data: seed.bytes)
        var block = 0
        while true {
            let message = block == 0 ? "\(drawId):\(label)" : "\(drawId):\(label):\(block)"
            let mac = Array(HMAC<SHA256>.authenticationCode(for: Array(message.utf8), using: key))
            for w in 0..<8 {
                let word = UInt64(mac[4 * w]) << 24 | UInt64(mac[4 * w + 1]) << 16
                    | UInt64(mac[4 * w + 2]) << 8 | UInt64(mac[4 * w + 3])
                if word < limit { return Int(word % n) }
            }
            block += 1
        }
    }

    /// The entrant indices (0-based) of winner slots 1…`winners`, all different.
    ///
    /// Slot `s` continues the rounds' stream: it is `index(round: rounds + s - 1, count: n - s + 1)`,
    /// a position among the entrants not drawn by slots 1…s-1, in list order. So slot 1 is the last
    /// round's pick, and a one-winner draw is exactly what it was before slots existed.
    /// - Precondition: `rounds >= 1` and `1 <= winners <= count`.
    public static func winnerIndices(seed: Seed, drawId: String, rounds: Int, count: Int, winners: Int) -> [Int] {
        precondition(rounds >= 1, "slot 1 is the last round's pick")
        precondition(winners >= 1 && winners <= count, "1 ≤ winners ≤ entrants")
        var taken: [Int] = []  // ascending, so a position maps to an index in O(k)
        var picks: [Int] = []
        picks.reserveCapacity(winners)
        for slot in 1...winners {
            let position = index(seed: seed, drawId: drawId, round: rounds + slot - 1, count: count - slot + 1)
            let picked = entrantIndex(atRemainingPosition: position, taken: taken)
            picks.append(picked)
            taken.insert(picked, at: taken.firstIndex { $0 > picked } ?? taken.count)
        }
        return picks
    }

    /// The index of the `position`-th (0-based) entrant whose index is not in `taken` (ascending):
    /// each taken index at or before the running answer pushes it one further.
    static func entrantIndex(atRemainingPosition position: Int, taken: [Int]) -> Int {
        var index = position
        for t in taken {
            guard t <= index else { break }
            index += 1
        }
        return index
    }
}
