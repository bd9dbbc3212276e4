/// The flips of a draw that reveals each winner with its own flips (`docs/FAIRNESS.md` §5a).
///
/// Winner 1's flips are the draw's rounds, unchanged. Winner `s` ≥ 2 gets `R` flips too: flip
/// `r` < `R` is the §4 pick with the label `"s.r"` (message `"{drawId}:{s}.{r}"`, then
/// `"{drawId}:{s}.{r}:{j}"`) among the entrants not drawn for slots 1…s−1, in list order; flip
/// `R` shows slot `s` itself. The slots are exactly §5's, so revealing the winners one at a time
/// changes who wins in no draw: only what the audience watches on the way.
///
/// Why labels with a dot: §4's messages use plain decimal round numbers, so no flip of a later
/// winner can reuse a block of the rounds or of the slots.
public enum WinnerReveal {
    /// The rounds of winners 2…k after `slot1Rounds` (winner 1's), numbered on from them.
    /// `slotIndices` are the entrant indices of slots 1…k (`PickDerivation.winnerIndices`).
    public static func laterRounds(seed: Seed, drawId: String, entrants: [Player], schedule: RoundSchedule,
                                   slotIndices: [Int]) -> [PlannedRound] {
        let perWinner = schedule.rounds
        let offsets = schedule.roundOffsetsMs
        var taken: [Int] = []  // ascending: the slots drawn before the current one
        var out: [PlannedRound] = []
        out.reserveCapacity(max(0, slotIndices.count - 1) * perWinner)
        for (i, slotIndex) in slotIndices.enumerated() {
            defer { taken.insert(slotIndex, at: taken.firstIndex { $0 > slotIndex } ?? taken.count) }
            let slot = i + 1
            guard slot >= 2 else { continue }
            for flip in 1...perWinner {
                let index: Int
                if flip == perWinner {
                    index = slotIndex
                } else {
                    let position = PickDerivation.index(seed: seed, drawId: drawId, label: "\(slot).\(flip)",
                                                        count: entrants.count - taken.count)
                    index = PickDerivation.entrantIndex(atRemainingPosition: position, taken: taken)
                }
                out.append(PlannedRound(round: (slot - 1) * perWinner + flip, offsetMs: offsets[flip - 1],
                                        pickIndex: index, player: entrants[index], slot: slot, flip: flip))
            }
        }
        return out
    }

    /// Winner slot and flip (both 1-based) of round `round` of a draw revealing each winner with
    /// `perWinner` flips.
    public static func slotAndFlip(round: Int, perWinner: Int) -> (slot: Int, flip: Int) {
        guard perWinner >= 1, round >= 1 else { return (1, round) }
        return ((round - 1) / perWinner + 1, (round - 1) % perWinner + 1)
    }
}

/// How a draw of several winners shows them (a start option; one winner is always one reveal).
public enum WinnerRevealMode: String, Sendable, Hashable, CaseIterable {
    /// One at a time, each with its own flips; the next follows by itself after a pause.
    case eachRunningOn = "auto"
    /// One at a time, each with its own flips; the next waits for the host's "draw the next
    /// winner" (`DrawInput.nextWinnerRequested`).
    case eachByHost = "host"
    /// All at once after one set of flips, as before per-winner reveals existed.
    case together
}
