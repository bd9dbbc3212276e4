/// A draw that failed before it could be planned (a source failed, or no players were left).
///
/// It still gets a record, with status `failed`, so the history shows every attempt a host made
/// and why it failed. It has no seed, no entrants and no rounds.
public struct FailedDrawRecord: Sendable, Hashable {
    /// A fresh id from `DrawIdentifier.generate(using:)`: a failed attempt never had a plan.
    public let drawId: String
    public let room: String
    public let failure: DrawFailure
    /// Merge warnings gathered before the failure (a `no_players` failure usually has some).
    public let warnings: [MergeWarning]
    public let sources: DrawSources
    /// When the host asked for the draw, epoch milliseconds.
    public let createdAt: Double
    /// When the failure was known (the `failed` message's time), epoch milliseconds.
    public let failedAt: Double

    public init(drawId: String, room: String, failure: DrawFailure, warnings: [MergeWarning],
                sources: DrawSources, createdAt: Double, failedAt: Double) {
        self.drawId = drawId
        self.room = room
        self.failure = failure
        self.warnings = warnings
        self.sources = sources
        self.createdAt = createdAt
        self.failedAt = failedAt
    }

    /// The record of a draw that failed with `error`, with its code, message and warnings.
    public init(drawId: String, room: String, error: DrawError, sources: DrawSources,
                createdAt: Double, failedAt: Double) {
        self.init(drawId: drawId, room: room, failure: DrawFailure(code: error.code, message: error.message),
                  warnings: error.warnings, sources: sources, createdAt: createdAt, failedAt: failedAt)
    }
}

/// Why a draw failed, as the `failed` message said it: a stable code and a sentence.
public struct DrawFailure: Sendable, Hashable {
    public let code: String
    public let message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
