@testable import DrawServer
import Testing

/// Issue 36, finding 7: an event's lateness is this node's clock minus the time a peer wrote in
/// its envelope. `receivedEvent` made nanoseconds of it with `Int64(…)`, which trapped (the whole
/// node) on a lateness of 1e300 or NaN; it records a clamped value instead.
@Suite struct ClusterMetricsTests {
    static let label = "livedraw_cluster_event_lateness_seconds"

    @Test func anyLatenessIsRecordedWithinZeroAndTheCap() {
        let metrics = RecordingMetrics.shared
        let cluster = ClusterMetrics()
        let cap = ClusterMetrics.latenessCapMs * 1_000_000
        // Other suites may record lateness meanwhile: look for these values, not at positions.
        let hostile: [(ms: Double, nanos: Double)] = [(1e300, cap), (.infinity, cap), (-1e300, 0), (-.infinity, 0),
                                                      (.nan, 0), (250.5, 250_500_000)]
        for (ms, nanos) in hostile {
            let before = metrics.recorded(Self.label).count
            cluster.receivedEvent(latenessMs: ms)
            #expect(metrics.recorded(Self.label).dropFirst(before).contains(nanos), "\(ms) ms recorded as \(nanos) ns")
        }
        #expect(ClusterMetrics.clampedLatenessMs(.nan) == 0 && ClusterMetrics.clampedLatenessMs(1e300) == ClusterMetrics.latenessCapMs)
    }
}
