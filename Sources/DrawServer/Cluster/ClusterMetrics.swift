import CoreMetrics

/// Cluster mode's metrics (`/metrics`): the link to the shared store and whether it is full,
/// what this node published and received, and how late the events of other nodes' draws reached
/// it. Service thread only.
final class ClusterMetrics {
    /// 1 while the link to Redis is up, 0 while it is down or connecting.
    private let linkUp = Gauge(label: "livedraw_cluster_link_up")
    private let published = Counter(label: "livedraw_cluster_events_published_total")
    private let publishFailures = Counter(label: "livedraw_cluster_publish_failures_total")
    private let received = Counter(label: "livedraw_cluster_events_received_total")
    /// Events of a draw this node already saw end (a woken node's late rounds, its own end after a
    /// takeover): dropped, not shown (`DrawTombstones`).
    private let stale = Counter(label: "livedraw_cluster_stale_events_dropped_total")
    /// Entries or lease renewals of this node's draws the cluster refused (a newer lease holds the
    /// room): the first stops the draw here (issue 27, fencing).
    private let fenced = Counter(label: "livedraw_cluster_fenced_out_total")
    /// Messages on a room's channel shown to nobody: `unauthenticated` (the cluster's MAC is
    /// missing or wrong) or `malformed` (not an envelope this version reads).
    private let droppedUnauthenticated = Counter(label: "livedraw_cluster_events_dropped_total",
                                                 dimensions: [("reason", DroppedEnvelope.unauthenticated.rawValue)])
    private let droppedMalformed = Counter(label: "livedraw_cluster_events_dropped_total",
                                           dimensions: [("reason", DroppedEnvelope.malformed.rawValue)])
    /// 1 while the shared store is full (Redis answered a write of this node's with `-OOM`, and
    /// none was taken since), else 0 (`ClusterStoreFull`).
    private let storeFullGauge = Gauge(label: "livedraw_cluster_store_full")
    /// Writes of this node's (a start's lease, a draw's step) Redis refused for want of memory.
    private let fullRefusals = Counter(label: "livedraw_cluster_store_full_refusals_total")
    /// Rooms whose viewers got a fresh snapshot after the link came back (they had missed events).
    private let resyncs = Counter(label: "livedraw_cluster_resyncs_total")
    /// Receive time minus the event's planned time, with this node's clock: what the cross-node
    /// hop (and any lateness of the running node) adds for this node's viewers.
    private let lateness = Timer(label: "livedraw_cluster_event_lateness_seconds", preferredDisplayUnit: .seconds)

    /// Ended draws this node copied into its archive since it started (issue 44).
    private let archivedDraws = Counter(label: "livedraw_cluster_archived_draws_total")
    /// 1 once this node found ends the retention window let go before it read them (it was away
    /// longer than the window): draws it cannot serve (docs/SCALING.md "Retention").
    private let archiveGapGauge = Gauge(label: "livedraw_cluster_archive_gap")

    func archived(_ count: Int) { archivedDraws.increment(by: count) }
    func archiveGap() { archiveGapGauge.record(1) }
    func link(up: Bool) { linkUp.record(up ? 1 : 0) }
    func publishedEvent() { published.increment() }
    func publishFailed() { publishFailures.increment() }
    func resynced() { resyncs.increment() }
    func staleEventDropped() { stale.increment() }
    func fencedOut() { fenced.increment() }
    func storeFull(_ full: Bool) { storeFullGauge.record(full ? 1 : 0) }
    func refusedByFullStore() { fullRefusals.increment() }
    func droppedEvent(_ why: DroppedEnvelope) {
        switch why {
        case .unauthenticated: droppedUnauthenticated.increment()
        case .malformed: droppedMalformed.increment()
        }
    }

    /// Longest lateness recorded (a year): what a sender's clock says is no reason to trap
    /// converting it to nanoseconds (`ClusterEnvelope.decode` checks its range too).
    static let latenessCapMs: Double = 365 * 86_400_000

    func receivedEvent(latenessMs: Double) {
        received.increment()
        lateness.recordNanoseconds(Int64(Self.clampedLatenessMs(latenessMs) * 1_000_000))
    }

    /// `latenessMs` within 0…`latenessCapMs`; NaN counts as on time.
    static func clampedLatenessMs(_ latenessMs: Double) -> Double {
        latenessMs.isNaN ? 0 : min(max(0, latenessMs), latenessCapMs)
    }
}
