/// A draw's beacon: the chain and round `R` its commitment names, and, once fetched, that round
/// (`docs/FAIRNESS.md` §9). Published in `started` (`chain`, `round`, `at`); `finished` and the
/// record add the round's randomness and signature.
public struct DrawBeacon: Sendable, Hashable {
    /// The chain's hash.
    public let chainHash: String
    /// Round `R`: the first round published at least the margin after the draw was planned.
    public let round: UInt64
    /// When `R` is published, epoch milliseconds: the earliest moment its randomness exists.
    public let roundAtMs: Double
    /// Round `R` as the beacon gave it; `nil` until fetched, and for ever in a draw that failed
    /// with `beacon_unavailable` (its seed was never used).
    public let value: BeaconRound?

    public init(chainHash: String, round: UInt64, roundAtMs: Double, value: BeaconRound? = nil) {
        self.chainHash = chainHash
        self.round = round
        self.roundAtMs = roundAtMs
        self.value = value
    }

    /// From its written form (a record, a stored row): the round's values both there (hex) or
    /// both absent. `nil` for anything else: a bad chain hash, round 0, a time that is not finite,
    /// one value without the other, or values that are not a round's.
    public init?(chainHash: String, round: UInt64, roundAtMs: Double, randomnessHex: String?, signatureHex: String?) {
        guard BeaconChain.isValidHash(chainHash), round >= 1, roundAtMs.isFinite else { return nil }
        switch (randomnessHex, signatureHex) {
        case (nil, nil):
            self.init(chainHash: chainHash, round: round, roundAtMs: roundAtMs)
        case (let r?, let s?):
            guard let value = BeaconRound(round: round, randomnessHex: r, signatureHex: s) else { return nil }
            self.init(chainHash: chainHash, round: round, roundAtMs: roundAtMs, value: value)
        default:
            return nil
        }
    }

    /// The round `R` of a draw planned at `plannedAtMs`, on `chain`, `marginMs` later at least;
    /// `nil` when the chain cannot name one (a time past its last representable round).
    public static func committing(on chain: BeaconChain, plannedAtMs: Double, marginMs: Int) -> DrawBeacon? {
        guard let round = chain.firstRound(publishedAtOrAfter: plannedAtMs + Double(marginMs)),
              let at = chain.publicationMs(ofRound: round) else { return nil }
        return DrawBeacon(chainHash: chain.hash, round: round, roundAtMs: at)
    }

    /// The same beacon with its round fetched. `nil` when `value` is another round or its
    /// randomness is not SHA-256 of its signature: such an answer is garbage and is never used.
    public func resolved(with value: BeaconRound) -> DrawBeacon? {
        guard value.round == round, value.isConsistent else { return nil }
        return DrawBeacon(chainHash: chainHash, round: round, roundAtMs: roundAtMs, value: value)
    }

    /// Whether round `R` has been fetched.
    public var isResolved: Bool { value != nil }

    /// Where anyone can check round `R` on a public relay.
    public var relayURL: String { "https://api.drand.sh/\(chainHash)/public/\(round)" }
}
