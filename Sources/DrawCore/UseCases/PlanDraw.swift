/// Use case: turn merged players into a fresh draw plan with a new secret seed and draw id.
public struct PlanDraw: Sendable {
    private let random: any RandomSource
    private let schedule: RoundSchedule

    /// - Parameters:
    ///   - random: a secure source in production; fixed bytes in tests.
    ///   - schedule: the round timing every draw made by this use case follows.
    public init(random: any RandomSource, schedule: RoundSchedule = .original) {
        self.random = random
        self.schedule = schedule
    }

    /// Draws a seed (32 bytes) and a draw id (16 bytes, hex) from the random source, then plans.
    public func execute(_ merge: MergeResult) -> DrawPlan {
        let seedBytes = random.bytes(Seed.byteCount)
        guard let seed = Seed(bytes: seedBytes) else {
            preconditionFailure("RandomSource returned \(seedBytes.count) bytes, not \(Seed.byteCount)")
        }
        let drawId = DrawIdentifier.generate(using: random)
        return DrawPlan.make(drawId: drawId, entrants: merge.players, warnings: merge.warnings,
                             seed: seed, schedule: schedule)
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
