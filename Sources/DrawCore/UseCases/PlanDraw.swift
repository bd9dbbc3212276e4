/// Use case: turn merged players into a fresh draw plan with a new secret seed and draw id.
public struct PlanDraw: Sendable {
    private let random: any RandomSource
    public let schedule: RoundSchedule
    /// Winner slots per draw (k); the caller checks it against the entrants before `execute`.
    public let winners: Int
    /// Whether a draw of several winners reveals each with its own flips (§5a), and whether the
    /// host advances from one winner to the next (`DrawSession`). Timing only for the second.
    public let reveal: WinnerRevealMode

    /// - Parameters:
    ///   - random: a secure source in production; fixed bytes in tests.
    ///   - schedule: the round timing every draw made by this use case follows.
    ///   - winners: how many winners each draw picks (`docs/FAIRNESS.md` §5).
    ///   - reveal: how several winners are revealed; one at a time, running on, by default.
    public init(random: any RandomSource, schedule: RoundSchedule = .original, winners: Int = 1,
                reveal: WinnerRevealMode = .eachRunningOn) {
        precondition(winners >= 1, "a draw picks at least one winner")
        self.random = random
        self.schedule = schedule
        self.winners = winners
        self.reveal = reveal
    }

    /// The same planner with another way of revealing the winners (a start option).
    public func revealing(_ mode: WinnerRevealMode) -> PlanDraw {
        PlanDraw(random: random, schedule: schedule, winners: winners, reveal: mode)
    }

    /// Draws a seed (32 bytes) and a draw id (16 bytes, hex) from the random source, then plans.
    /// - Precondition: `winners` is at most the number of players (`DrawPlan.isValidWinnerCount`).
    /// With `redrawOf`, the draw replaces a removed winner (§5b): one winner, among `merge`'s
    /// players (the caller's `RedrawLink.make` gave them).
    public func execute(_ merge: MergeResult, redrawOf: RedrawLink? = nil) -> DrawPlan {
        let (seed, drawId) = freshSeedAndId()
        return DrawPlan.make(drawId: drawId, entrants: merge.players, warnings: merge.warnings,
                             seed: seed, schedule: schedule, winners: redrawOf == nil ? winners : 1,
                             revealEachWinner: reveal != .together, redrawOf: redrawOf)
    }

    /// A new seed (32 bytes) and draw id (16 bytes, hex) from the random source.
    func freshSeedAndId() -> (Seed, String) {
        let seedBytes = random.bytes(Seed.byteCount)
        guard let seed = Seed(bytes: seedBytes) else {
            preconditionFailure("RandomSource returned \(seedBytes.count) bytes, not \(Seed.byteCount)")
        }
        return (seed, DrawIdentifier.generate(using: random))
    }
}

/// The shape of draw ids this server makes: 32 lowercase hex characters (128 random bits).
public enum DrawIdentifier {
    /// Random bytes behind an id.
    public static let randomBytes = 16

    /// A fresh id. Also used for the record of a draw that failed before it had a plan.
    public static func generate(using random: any RandomSource) -> String {
        Hex.encode(random.bytes(randomBytes))
    }

    /// Whether `s` is a well-formed draw id (used to reject junk in API paths early).
    public static func isValid(_ s: String) -> Bool {
        s.utf8.count == randomBytes * 2 && s.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }
}
