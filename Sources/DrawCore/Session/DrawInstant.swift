/// One reading of the server's clocks, taken by the shell when something happens and handed to
/// `DrawSession` inside the input, so the session itself never reads a clock.
///
/// Two readings because they serve two purposes: the wall clock is what the wire and the records
/// carry (`startedAt`, `sentAt`, ...); the monotonic one is what pacing and deadlines use, as it
/// never goes backwards.
public struct DrawInstant: Sendable, Hashable {
    /// Wall-clock time in epoch milliseconds (fractional).
    public let epochMs: Double
    /// Monotonic nanoseconds from any origin.
    public let nanos: UInt64

    public init(epochMs: Double, nanos: UInt64) {
        self.epochMs = epochMs
        self.nanos = nanos
    }
}

extension DrawClock {
    /// Both readings, now.
    public func instant() -> DrawInstant {
        DrawInstant(epochMs: epochMillis(), nanos: monotonicNanos())
    }
}
