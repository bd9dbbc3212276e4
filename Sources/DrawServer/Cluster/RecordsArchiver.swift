import DrawCore
import DrawPresentation
import Logging

/// Copies every draw the cluster ended into this node's own store (`DrawArchive`, issue 44), so
/// it still serves a draw once Redis let it go (`HistoryRetention`): a record, its entrants and
/// its history line read and verify here a month later, wherever the draw ran.
///
/// It follows the shared store's ends stream from the cursor its archive keeps, so a node that
/// restarts, or starts empty, catches up on what Redis still holds; a node away longer than the
/// window reports the gap (docs/SCALING.md "Retention"). One pass at a time: the ends are read
/// where Redis is read, the copy is written where the draw store is written, and the answer
/// comes back to the service thread. Service thread only.
final class RecordsArchiver {
    /// Where the blocking work runs, injected so tests run it inline.
    struct Backend {
        let records: any SharedDrawRecords
        let archive: any DrawArchive
        /// Runs a job on the draw store's thread; false when that thread takes no more work.
        let onStore: (@escaping @Sendable () -> Void) -> Bool
        /// Runs a job on the shared store's thread; false when that thread takes no more work.
        let onShared: (@escaping @Sendable () -> Void) -> Bool
    }

    /// Ends read per pass; a full page starts the next pass at once.
    static let batch = 100
    /// Nanoseconds between passes when the last one found nothing more (2 s).
    static let interval: UInt64 = 2_000_000_000

    private let backend: Backend
    private unowned let loop: any RoomLoop
    private let clock: any DrawClock
    private let logger: Logger
    private let batch: Int
    /// The archive's cursor, once read (`nil` inside: nothing archived yet).
    private var cursor: String??
    private var busy = false
    private var nextPassNanos: UInt64 = 0
    private var failing = false
    private var closed = false
    /// Whether a gap was reported (once per start).
    private(set) var gapReported = false
    /// Told of each batch archived (`/metrics`).
    var onArchived: (Int) -> Void = { _ in }
    /// Told once of a gap (`/metrics`).
    var onGap: () -> Void = {}

    init(backend: Backend, loop: any RoomLoop, clock: any DrawClock, logger: Logger, batch: Int = RecordsArchiver.batch) {
        self.backend = backend
        self.loop = loop
        self.clock = clock
        self.logger = logger
        self.batch = batch
    }

    /// Once a second (the cluster's housekeeping): a pass when one is due and none runs.
    func tick() {
        guard !closed, !busy, clock.monotonicNanos() >= nextPassNanos else { return }
        busy = true
        guard let known = cursor else { return readCursor() }
        read(after: known)
    }

    func close() { closed = true }

    private func readCursor() {
        let archive = backend.archive
        let back = loop.executor.continuation { [weak self] (known: Result<String?, StorageError>) in
            guard let self else { return }
            switch known {
            case .success(let known):
                cursor = .some(known)
                read(after: known)
            case .failure(let error):
                finished(.failed("could not read the archive's cursor: \(error)"), more: false)
            }
        }
        if !backend.onStore({ do throws(StorageError) { back(.success(try archive.archiveCursor())) } catch { back(.failure(error)) } }) {
            finished(.failed("the storage thread takes no more work"), more: false)
        }
    }

    /// What one pass read from the shared store.
    private struct Read: Sendable {
        let draws: [ArchivedDraw]
        let cursor: String?
        let count: Int
        let gap: Bool
    }

    private func read(after known: String?) {
        let records = backend.records, batch = self.batch
        let back = loop.executor.continuation { [weak self] (read: Result<Read, CoordinationError>) in
            guard let self else { return }
            switch read {
            case .success(let page): write(page)
            case .failure(let error): finished(.failed("could not read the cluster's ended draws: \(error)"), more: false)
            }
        }
        let taken = backend.onShared {
            do throws(CoordinationError) {
                let page = try records.ends(after: known, limit: batch)
                var draws: [ArchivedDraw] = []
                for end in page.ends {
                    if let draw = try records.archivable(end).flatMap(Self.withLine) { draws.append(draw) }
                }
                back(.success(Read(draws: draws, cursor: page.ends.last?.cursor, count: page.ends.count, gap: page.gap)))
            } catch {
                back(.failure(error))
            }
        }
        if !taken { finished(.failed("the shared store's thread takes no more work"), more: false) }
    }

    /// `draw` with its history line: Redis' (the room's cap may have let it go already), else
    /// made from its record as the running node made it (`nil`: a record that does not decode).
    static func withLine(_ draw: ArchivedDraw) -> ArchivedDraw? {
        guard draw.summary.isEmpty else { return draw }
        guard let record = RecordBodyDecoder.decode(draw.body.whole) else { return nil }
        return ArchivedDraw(drawId: draw.drawId, room: draw.room, position: draw.position,
                            summary: RecordMessages.summary(DrawSummary(record: record)), body: draw.body)
    }

    private func write(_ page: Read) {
        if page.gap, !gapReported {
            gapReported = true
            onGap()
            logger.warning("""
                some draws ended while this node was away longer than the cluster's history window; \
                it cannot serve them (the nodes that archived them can)
                """)
        }
        guard let next = page.cursor else { return finished(.archived(0), more: false) }
        let archive = backend.archive, draws = page.draws, full = page.count >= batch
        let back = loop.executor.continuation { [weak self] (written: Result<Int, StorageError>) in
            guard let self else { return }
            switch written {
            case .success(let count):
                cursor = .some(next)
                finished(.archived(count), more: full)
            case .failure(let error):
                finished(.failed("could not archive the cluster's ended draws: \(error)"), more: false)
            }
        }
        if !backend.onStore({
            do throws(StorageError) {
                try archive.archive(draws, cursor: next)
                back(.success(draws.count))
            } catch {
                back(.failure(error))
            }
        }) {
            finished(.failed("the storage thread takes no more work"), more: false)
        }
    }

    private enum Outcome {
        case archived(Int)
        case failed(String)
    }

    private func finished(_ outcome: Outcome, more: Bool) {
        busy = false
        switch outcome {
        case .archived(let count):
            if count > 0 { onArchived(count) }
            if failing { logger.notice("archiving the cluster's ended draws again") }
            failing = false
        case .failed(let why):
            // One line per outage, not one per pass.
            if !failing { logger.warning("could not archive the cluster's ended draws; retrying", metadata: ["error": "\(why)"]) }
            failing = true
        }
        nextPassNanos = more ? 0 : clock.monotonicNanos() + Self.interval
    }
}


extension RecordsArchiver {
    /// The server's archiver: the shared history of `node` into its archive, the ends read on
    /// the shared store's thread and the copies written on the draw store's. `nil` without both.
    static func make(node: ClusterNode, storage: ServerStorage, loop: any RoomLoop, clock: any DrawClock,
                     logger: Logger) -> RecordsArchiver? {
        guard let records = node.services.records, let archive = node.services.archive else { return nil }
        let backend = Backend(records: records, archive: archive,
                              onStore: { [unowned storage] job in storage.submit(job, reading: .draws) },
                              onShared: { [unowned storage] job in storage.submit(job, reading: .shared) })
        let archiver = RecordsArchiver(backend: backend, loop: loop, clock: clock, logger: logger)
        let metrics = node.metrics
        archiver.onArchived = { [unowned metrics] count in metrics.archived(count) }
        archiver.onGap = { [unowned metrics] in metrics.archiveGap() }
        return archiver
    }
}
