import CoreMetrics
import Foundation

/// A swift-metrics backend that remembers what was recorded, keyed by label and dimensions
/// (`name{key=value}`), so a test can read the server's metrics back.
final class RecordingMetrics: MetricsFactory, @unchecked Sendable {
    // Every field is guarded by `lock`: handlers are called from the service thread, reads
    // from the test.
    private let lock = NSLock()
    private var counters: [String: Int64] = [:]
    private var recordings: [String: [Double]] = [:]

    /// Installed once per test process (swift-metrics allows one bootstrap).
    static let shared: RecordingMetrics = {
        let m = RecordingMetrics()
        MetricsSystem.bootstrap(m)
        return m
    }()

    func counter(_ key: String) -> Int64 { lock.withLock { counters[key] ?? 0 } }
    func recorded(_ key: String) -> [Double] { lock.withLock { recordings[key] ?? [] } }

    private static func key(_ label: String, _ dims: [(String, String)]) -> String {
        dims.isEmpty ? label : label + "{" + dims.map { "\($0.0)=\($0.1)" }.joined(separator: ",") + "}"
    }

    fileprivate func add(_ key: String, _ n: Int64) { lock.withLock { counters[key, default: 0] += n } }
    fileprivate func append(_ key: String, _ v: Double) { lock.withLock { recordings[key, default: []].append(v) } }

    func makeCounter(label: String, dimensions: [(String, String)]) -> CounterHandler {
        Handler(self, Self.key(label, dimensions))
    }
    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> RecorderHandler {
        Handler(self, Self.key(label, dimensions))
    }
    func makeTimer(label: String, dimensions: [(String, String)]) -> TimerHandler {
        Handler(self, Self.key(label, dimensions))
    }
    func destroyCounter(_ handler: CounterHandler) {}
    func destroyRecorder(_ handler: RecorderHandler) {}
    func destroyTimer(_ handler: TimerHandler) {}

    private final class Handler: CounterHandler, RecorderHandler, TimerHandler, @unchecked Sendable {
        // Immutable after init; the owner does the locking.
        let owner: RecordingMetrics
        let key: String
        init(_ owner: RecordingMetrics, _ key: String) { self.owner = owner; self.key = key }
        func increment(by n: Int64) { owner.add(key, n) }
        func reset() {}
        func record(_ value: Int64) { owner.append(key, Double(value)) }
        func record(_ value: Double) { owner.append(key, value) }
        func recordNanoseconds(_ duration: Int64) { owner.append(key, Double(duration)) }
    }
}
