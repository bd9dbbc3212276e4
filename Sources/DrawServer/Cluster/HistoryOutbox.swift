import DrawCore
import DrawPresentation
import Logging

/// Cluster mode's one history (docs/SCALING.md, "One history"): every history line this node
/// owes the cluster (a step of its own draw on its disk, a draw it reconciled at start, the end
/// of another node's draw it took over) goes through a durable outbox, a row in its SQLite store,
/// and is sent to the shared history until Redis acknowledged it; only then is the row deleted.
/// A node restarted after a crash resumes what its outbox holds (`resume`), and after Redis came
/// back it writes back the lines Redis lost (`restore`).
///
/// Exactly once per draw: the shared store fences each draw's end (`SharedDrawRecords.keep`), so
/// a retry is idempotent and an end another node recorded first refuses this one (the row goes,
/// with one notice).
///
/// Service thread only, like the other owners; blocking work runs on the storage threads
/// (`Backend`), and its results come back through the inbox. State lives in `HistoryOutboxQueue`.
final class HistoryOutbox: OwedHistory {
    /// Where the blocking work runs, injected so tests run it inline.
    struct Backend {
        /// The shared history (Redis).
        let records: any SharedDrawRecords
        /// The durable rows; `nil`: the outbox lives in memory only (no data directory).
        let rows: (any HistoryOutboxStore)?
        /// This node's own record of a draw; called on the storage thread.
        let localRecord: @Sendable (_ drawId: String) throws(StorageError) -> DrawRecord?
        /// Runs a job on the draw store's thread; false when that thread takes no more work.
        let onStore: (@escaping @Sendable () -> Void) -> Bool
        /// Runs a job on the shared store's thread; false when that thread takes no more work.
        let onShared: (@escaping @Sendable () -> Void) -> Bool
    }

    /// How many of its own newest draws a node writes back after Redis came back without them.
    static let restoreLimit = 1_000
    /// How many rows one `resume` reads; more are read once those are sent.
    static let resumeBatch = 1_000

    private let backend: Backend
    private unowned let loop: any RoomLoop
    private let clock: any DrawClock
    private let logger: Logger
    private(set) var queue: HistoryOutboxQueue
    private let resumeBatch: Int
    /// The shared history's retention window (`HistoryRetention.windowMs`): a line of a draw that
    /// ended before it is not sent, nor written back (issue 44).
    private let windowMs: Int64
    private var timer: (any ServiceTimer)?
    /// The last `resume` read a full batch: read again once the queue is empty.
    private var moreToResume = false
    private var closed = false
    /// A line of this node's is held by a draw still escrowed in `room` (`HistoryLineSend.held`,
    /// `true`): unless its own fenced end comes, that draw is to be taken over, so the cluster
    /// ends it and publishes the end; or a line of the room is settled (`false`).
    var heldByEscrow: (_ room: String, _ held: Bool) -> Void = { _, _ in }
    /// Waiting for nothing to be owed (`whenSettled`): the shutdown.
    private var settledWaiters: [() -> Void] = []

    init(backend: Backend, loop: any RoomLoop, clock: any DrawClock, logger: Logger,
         queue: HistoryOutboxQueue = HistoryOutboxQueue(), resumeBatch: Int = HistoryOutbox.resumeBatch,
         windowMs: Int64 = HistoryRetention.standard.windowMs) {
        self.backend = backend
        self.windowMs = windowMs
        self.loop = loop
        self.clock = clock
        self.logger = logger
        self.queue = queue
        self.resumeBatch = resumeBatch
    }

    // MARK: What is owed

    /// A step of this node's own draw that changes its history line is on its disk (`final`: the
    /// draw's end). The line is read from the store when it is sent, so it is the newest then.
    func owe(drawId: String, room: String, token: UInt64, final: Bool) {
        add(OwedHistoryLine(drawId: drawId, room: room, token: token, final: final), durably: true)
    }

    /// The end of this node's draw is about to be handed to the draw store: its row is written
    /// first, on the same serial thread, so no moment exists where the end is on disk and the
    /// line it owes is not. Without it, a stop between the two (the store closed with the row's
    /// write still queued, or a crash) left the shared line `running` for good: the local record
    /// was ended, so the restart reconciled nothing, and no row said the end was owed (issue 36).
    /// Nothing is sent yet: the line goes out once the end is on disk (`owe`). A write that then
    /// fails leaves the row for the next start, which reconciles the record and sends its end.
    func oweAhead(drawId: String, room: String, token: UInt64) {
        keepRow(OwedHistoryLine(drawId: drawId, room: room, token: token, final: true))
    }

    /// The one entry point of the takeover (`ClusterNode+Takeover`): this node ended another
    /// node's draw as `interrupted` with its escrowed seed, so it owes the draw's history line,
    /// made from the shared `running` record and written with the takeover's `token`.
    func takeoverEnded(drawId: String, room: String, token: UInt64, seedHex: String, roundsShown: Int, endedAt: Double) {
        let end = OwedHistoryLine.TakeoverEnd(seedHex: seedHex, roundsShown: roundsShown, endedAt: endedAt)
        add(OwedHistoryLine(drawId: drawId, room: room, token: token, final: true, takeover: end), durably: true)
    }

    /// At start: what the outbox still holds (lines of an earlier run, reconciled draws).
    func resume() {
        guard let rows = backend.rows else { return }
        let batch = resumeBatch
        let back = loop.executor.continuation { [weak self] (read: Result<[OwedHistoryLine], StorageError>) in
            self?.resumed(read)
        }
        _ = backend.onStore {
            do throws(StorageError) { back(.success(try rows.owed(limit: batch))) } catch { back(.failure(error)) }
        }
    }

    /// Redis came back, maybe empty: what waits for a retry is sent at once (not after the rest
    /// of its backoff), and this node's newest `limit` draws that the shared store has no record
    /// of are owed again (token 0: an end another node recorded meanwhile wins).
    /// Only draws that ended within `windowMs` (the shared history's retention): older ones it
    /// let go on purpose, and writing them back would give them new places at the top of their
    /// rooms' histories.
    func restore(limit: Int = HistoryOutbox.restoreLimit) {
        queue.retryNow()
        pump()
        guard let rows = backend.rows else { return }
        let records = backend.records, onShared = backend.onShared
        let since = clock.epochMillis() - Double(windowMs)
        let back = loop.executor.continuation { [weak self] (missing: [(drawId: String, room: String)]) in
            self?.restored(missing)
        }
        let asked = loop.executor.continuation { (draws: [(drawId: String, room: String)]) in
            _ = onShared {
                guard let missing = try? records.missing(drawIds: draws.map(\.drawId)) else { return }
                let wanted = Set(missing)
                back(draws.filter { wanted.contains($0.drawId) })
            }
        }
        _ = backend.onStore {
            guard let draws = try? rows.newestDraws(limit: limit, since: since), !draws.isEmpty else { return }
            asked(draws)
        }
    }

    /// Stops retrying (the server is closing); what is still owed stays in the outbox.
    func close() {
        closed = true
        timer?.cancel()
    }

    /// How many draws' lines are owed now (queued or being sent).
    var owedLines: Int { queue.entries.count }

    /// Calls `done` once nothing is owed: every line acknowledged (or given up) and its row's
    /// deletion handed to the draw store's thread. At once when nothing is owed now.
    func whenSettled(_ done: @escaping () -> Void) {
        guard !queue.isEmpty else { return done() }
        settledWaiters.append(done)
    }

    /// Tells the waiters once the queue is empty.
    private func notifyIfSettled() {
        guard queue.isEmpty, !settledWaiters.isEmpty else { return }
        let waiters = settledWaiters
        settledWaiters = []
        for done in waiters { done() }
    }

    private func resumed(_ read: Result<[OwedHistoryLine], StorageError>) {
        switch read {
        case .success(let lines):
            moreToResume = lines.count >= resumeBatch
            if !lines.isEmpty {
                logger.notice("resuming the history lines owed to the cluster", metadata: ["lines": "\(lines.count)"])
            }
            for line in lines { add(line, durably: false) }
        case .failure(let error):
            logger.warning("could not read the history outbox", metadata: ["error": "\(error)"])
        }
    }

    private func restored(_ missing: [(drawId: String, room: String)]) {
        guard !missing.isEmpty else { return }
        logger.notice("writing draws' history lines back to the cluster", metadata: ["draws": "\(missing.count)"])
        for draw in missing { add(OwedHistoryLine(drawId: draw.drawId, room: draw.room, token: 0, final: false), durably: true) }
    }

    private func add(_ line: OwedHistoryLine, durably: Bool) {
        queue.owe(line)
        // Queued before the send's own storage step, so the row is on disk before the line can
        // reach Redis (one serial thread).
        if durably { keepRow(line) }
        pump()
    }

    /// Writes `line`'s row on the draw store's thread (merged with one already there).
    private func keepRow(_ line: OwedHistoryLine) {
        guard let rows = backend.rows else { return }
        let logger = self.logger
        _ = backend.onStore {
            do throws(StorageError) { try rows.owe(line) } catch {
                logger.warning("could not keep a history line in the outbox; it is sent from memory",
                               metadata: ["drawId": "\(line.drawId)", "error": "\(error)"])
            }
        }
    }

    // MARK: Sending

    /// Sends what is due, and arms the timer for what waits.
    private func pump() {
        guard !closed else { return }
        let now = clock.monotonicNanos()
        for line in queue.takeDue(now: now) { send(line) }
        if queue.isEmpty, moreToResume {
            moreToResume = false
            resume()
        }
        guard let next = queue.nextDue(now: now), next > now else { return }
        if timer == nil { timer = loop.makeTimer { [unowned self] in pump() } }
        timer?.schedule(afterNanos: next - now)
    }

    /// Step one, on the draw store's thread: this node's record of the draw (a takeover's draw
    /// is not there, and passes). Step two, on the shared store's thread: the keep.
    private func send(_ line: OwedHistoryLine) {
        let localRecord = backend.localRecord
        // A draw that ended before the window (a line owed by a node that was away longer): the
        // shared history let such draws go, and writing it now would give it a new place at the
        // top of its room's history (issue 44). The nodes that were up archived it.
        let cutoff = clock.epochMillis() - Double(windowMs)
        let stored = loop.executor.continuation { [weak self] (read: LocalRead) in self?.stored(line, read) }
        let taken = backend.onStore {
            guard line.takeover == nil else { return stored(.takeover) }
            do throws(StorageError) {
                guard let record = try localRecord(line.drawId) else { return stored(.missing) }
                if record.status.isEnded, let end = record.finishedAt, end < cutoff { return stored(.pastWindow) }
                stored(.record(summary: RecordMessages.summary(DrawSummary(record: record)),
                               body: RecordMessages.sharedRecord(record), ended: record.status.isEnded))
            } catch {
                stored(.failed(error.description))
            }
        }
        if !taken { answered(line, .failed("the storage thread takes no more work")) }
    }

    private func stored(_ line: OwedHistoryLine, _ read: LocalRead) {
        let records = backend.records
        let done = loop.executor.continuation { [weak self] (sent: HistoryLineSend.Outcome) in self?.answered(line, sent) }
        let job: @Sendable () -> Void
        switch read {
        case .missing: return answered(line, .unusable("this node's store has no record of the draw"))
        case .pastWindow: return answered(line, .unusable("the draw ended before the cluster's history window"))
        case .failed(let why): return answered(line, .failed(why))
        case .record(let summary, let body, let ended):
            job = { done(HistoryLineSend.keep(line, summary: summary, body: body, final: line.final || ended, in: records)) }
        case .takeover:
            job = { done(HistoryLineSend.endTakeover(line, in: records)) }
        }
        if !backend.onShared(job) { answered(line, .failed("the shared store's thread takes no more work")) }
    }

    private func answered(_ line: OwedHistoryLine, _ sent: HistoryLineSend.Outcome) {
        let id = line.drawId
        heldByEscrow(line.room, sent == .held)
        switch sent {
        case .kept:
            if queue.acknowledged(id) == .settle { settle(id) }
        case .refused:
            logger.notice("the cluster already recorded another end for this draw", metadata: [
                "drawId": "\(id)", "room": "\(line.room)", "token": "\(line.token)",
            ])
            queue.drop(id)
            settle(id)
        case .unusable(let why):
            logger.warning("dropped a history line that cannot be made", metadata: ["drawId": "\(id)", "reason": "\(why)"])
            queue.drop(id)
            settle(id)
        case .bodyMissing:
            if queue.bodyMissing(id, now: clock.monotonicNanos()) {
                logger.warning("gave up the history line of a draw taken over: the cluster has no record of it",
                               metadata: ["drawId": "\(id)", "room": "\(line.room)"])
                settle(id)
            }
        case .held:
            // The draw is still the room's running draw in the cluster: its end is a fenced
            // entry's to claim and publish first (its own, still on its way; or, for a draw this
            // node's restart reconciled, a takeover's, `ClusterNode+Takeover`); this line waits.
            queue.failed(id, now: clock.monotonicNanos())
        case .failed(let why):
            let first = queue.failures == 0
            queue.failed(id, now: clock.monotonicNanos())
            // One line per outage, not one per line and retry.
            if first {
                logger.warning("could not share history lines with the cluster; retrying",
                               metadata: ["drawId": "\(id)", "error": "\(why)"])
            }
        }
        pump()
        notifyIfSettled()
    }

    /// The row of `drawId` goes (acknowledged, or never to be sent).
    private func settle(_ drawId: String) {
        guard let rows = backend.rows else { return }
        let logger = self.logger
        _ = backend.onStore {
            do throws(StorageError) { try rows.settle(drawId: drawId) } catch {
                logger.warning("could not delete a settled line from the history outbox",
                               metadata: ["drawId": "\(drawId)", "error": "\(error)"])
            }
        }
    }

    /// What step one read.
    private enum LocalRead: Sendable {
        /// `body`: the record with its list apart, which the shared store keeps once (issue 44).
        case record(summary: [UInt8], body: SharedRecordBody, ended: Bool)
        case missing
        /// Ended before the shared history's window: not sent.
        case pastWindow
        case takeover
        case failed(String)
    }
}
