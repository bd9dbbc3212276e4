import CoreMetrics
import DrawCore
import Foundation
import Logging

/// Values read back from Redis that do not carry the cluster's seal (`StoredSeal`; issue 36,
/// finding 8): counted per kind (`livedraw_cluster_stored_values_refused_total{kind}`) and
/// logged at most once per `DroppedEnvelopeLog.intervalNanos`, with how many since, however
/// many forged values a writer to Redis plants. The Redis adapters refuse them on the rooms
/// thread and the cluster worker, so this is guarded by a lock; `report` is the seal's
/// `StoredSeal.Refusal`.
public final class StoredValueRefusals: @unchecked Sendable {
    // @unchecked Sendable: `log` is guarded by `lock`; the rest is immutable or thread-safe.
    private let lock = NSLock()
    private var log = DroppedEnvelopeLog()
    private let logger: Logger
    private let clock: any DrawClock
    private let counters: [StoredSeal.Kind: Counter]

    public init(logger: Logger, clock: any DrawClock) {
        self.logger = logger
        self.clock = clock
        counters = Dictionary(uniqueKeysWithValues: StoredSeal.Kind.allCases.map {
            ($0, Counter(label: "livedraw_cluster_stored_values_refused_total", dimensions: [("kind", $0.rawValue)]))
        })
    }

    /// A value of `kind` under `key` was refused: counted, and logged unless a warning went out
    /// within the interval.
    public func report(_ kind: StoredSeal.Kind, key: String) {
        counters[kind]?.increment()
        let count = lock.withLock { log.dropped(nowNanos: clock.monotonicNanos()) }
        guard let count else { return }
        logger.warning("refused a value in Redis that does not carry the cluster's seal", metadata: [
            "kind": "\(kind.rawValue)", "key": "\(key)", "refused": "\(count)",
        ])
    }
}
