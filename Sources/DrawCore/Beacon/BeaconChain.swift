/// A drand chain as far as a draw needs it: which chain, and when each of its rounds is
/// published (`docs/FAIRNESS.md` §9).
///
/// Round `R` (1, 2, …) is published at `genesis + (R − 1) · period` seconds after the epoch. The
/// arithmetic takes numbers a beacon sent (genesis, period, round numbers), so every step is
/// checked: a value that would overflow answers `nil`, never a trap.
public struct BeaconChain: Sendable, Hashable {
    /// The chain hash, 64 lowercase hex characters: the chain's identity in drand's API
    /// (`/{hash}/info`, `/{hash}/public/{round}`).
    public let hash: String
    /// Epoch seconds at which round 1 was published.
    public let genesisSeconds: Int64
    /// Seconds between two rounds (at least 1).
    public let periodSeconds: Int64
    /// The chain's BLS public key, hex, as its `info` gives it (informational: the server does
    /// not check signatures, see `BeaconRound`).
    public let publicKey: String

    /// Longest period accepted: a chain slower than this would make a draw wait too long.
    public static let periodLimit: ClosedRange<Int64> = 1...3_600

    /// `nil` when `hash` is not 64 hex characters, the genesis is negative or the period is
    /// outside `periodLimit`.
    public init?(hash: String, genesisSeconds: Int64, periodSeconds: Int64, publicKey: String = "") {
        guard BeaconChain.isValidHash(hash), genesisSeconds >= 0,
              BeaconChain.periodLimit.contains(periodSeconds) else { return nil }
        self.hash = hash.lowercased()
        self.genesisSeconds = genesisSeconds
        self.periodSeconds = periodSeconds
        self.publicKey = publicKey
    }

    /// Whether `s` is a chain hash: 64 hex characters.
    public static func isValidHash(_ s: String) -> Bool {
        s.utf8.count == 64 && Hex.decode(s) != nil
    }

    /// When round `round` is published, in epoch milliseconds; `nil` for round 0 or a round so
    /// far ahead that its time does not fit.
    public func publicationMs(ofRound round: UInt64) -> Double? {
        guard round >= 1, round - 1 <= UInt64(Int64.max) else { return nil }
        let (offset, o1) = Int64(round - 1).multipliedReportingOverflow(by: periodSeconds)
        guard !o1 else { return nil }
        let (seconds, o2) = genesisSeconds.addingReportingOverflow(offset)
        guard !o2, seconds <= Int64.max / 1000 else { return nil }
        return Double(seconds) * 1000
    }

    /// The first round published at or after `epochMs`: round 1 before the genesis, else
    /// `ceil((t − genesis) / period) + 1`. `nil` when `epochMs` is not finite or so far ahead
    /// that no round number fits.
    public func firstRound(publishedAtOrAfter epochMs: Double) -> UInt64? {
        guard epochMs.isFinite else { return nil }
        let genesisMs = Double(genesisSeconds) * 1000
        guard epochMs > genesisMs else { return 1 }
        let periodMs = Double(periodSeconds) * 1000
        let steps = ((epochMs - genesisMs) / periodMs).rounded(.up)
        guard steps < 9.0e15 else { return nil }  // exact in a Double, and in a UInt64
        var round = UInt64(steps) + 1
        // Floating-point division can land one off at an exact boundary: settle on the integers.
        while round > 1, let before = publicationMs(ofRound: round - 1), before >= epochMs { round -= 1 }
        while let at = publicationMs(ofRound: round), at < epochMs { round += 1 }
        return publicationMs(ofRound: round) == nil ? nil : round
    }
}
