/// Other nodes' messages held back for one room while its viewers wait for the cluster's end of
/// this node's refused draw (`ClusterEventReceiver.showClusterEnd`), so nothing of a newer draw
/// reaches them first. Bounded in time and count: a view read that never answers (Redis away)
/// or a flood lets them go on in their order rather than hold the room's channel forever.
struct HeldEvents {
    /// How long messages are held at most: a view read takes a Redis round trip.
    static let limitNanos: UInt64 = 2_000_000_000
    /// How many at most (a draw at its fastest sends 20 rounds a second).
    static let maxHeld = 1024

    let sinceNanos: UInt64
    private(set) var payloads: [[UInt8]] = []

    init(sinceNanos: UInt64) { self.sinceNanos = sinceNanos }

    /// Holds `payload` and says so; false once the limit of time or count is reached (the caller
    /// lets everything held go on, then handles `payload` itself).
    mutating func hold(_ payload: [UInt8], nowNanos: UInt64) -> Bool {
        guard nowNanos &- sinceNanos < Self.limitNanos, payloads.count < Self.maxHeld else { return false }
        payloads.append(payload)
        return true
    }
}
