import DrawCore

/// The history outbox's bookkeeping (`HistoryOutbox`), without threads or I/O so it is tested
/// alone: which draws' lines are owed, which are being sent, and when to try again.
///
/// One entry per draw: a draw owed again while its line is being sent is sent again once that
/// send is answered (the answer may be for the older step), never settled under it. Retries
/// share one backoff: a failure means the shared store is away for every line, not for one,
/// so after it nothing is sent until `pausedUntil` (0.5 s doubling to 2 s by default, one step
/// per failed round of sends), and the first acknowledgement resets it. 2 s at most: a Redis that
/// only paused (no reconnect to say it is back) must not keep a draw's end out of the history
/// for longer than the cluster's 10 s promise (the nemesis found a 10 s backoff settling in
/// 10.6 s, CHAOS_SEED=503440466); one retry every 2 s of at most `maxInFlight` lines costs
/// Redis nothing. At most `maxInFlight`
/// lines are being sent at once, so a long outage's backlog is read and sent a few at a time.
struct HistoryOutboxQueue {
    struct Entry: Hashable {
        var line: OwedHistoryLine
        var sending = false
        /// Owed again while being sent: send again after the answer instead of settling.
        var owedAgain = false
        /// How often the shared record a takeover ends was not there yet.
        var bodiesMissing = 0
    }

    /// What to do once a send was acknowledged.
    enum Acknowledged: Equatable {
        /// The row goes: the line the cluster has is the newest this node owes.
        case settle
        /// Owed again meanwhile: the line is sent again (it is due at once).
        case sendAgain
    }

    let initialDelayNanos: UInt64
    let maxDelayNanos: UInt64
    let maxInFlight: Int
    /// A takeover whose shared `running` record is still missing after this many tries is given
    /// up (its node died before sharing it; that node's restart owes the line instead).
    let maxBodiesMissing: Int
    private(set) var entries: [String: Entry] = [:]
    private var waiting = FIFO<String>()
    private(set) var inFlight = 0
    /// Failed rounds of sends since the last acknowledgement.
    private(set) var failures = 0
    /// Nothing is sent before this (monotonic ns).
    private(set) var pausedUntil: UInt64 = 0

    init(initialDelayNanos: UInt64 = 500_000_000, maxDelayNanos: UInt64 = 2_000_000_000, maxInFlight: Int = 8,
         maxBodiesMissing: Int = 5) {
        precondition(initialDelayNanos > 0 && maxDelayNanos >= initialDelayNanos && maxInFlight > 0)
        self.initialDelayNanos = initialDelayNanos
        self.maxDelayNanos = maxDelayNanos
        self.maxInFlight = maxInFlight
        self.maxBodiesMissing = maxBodiesMissing
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Owes `line`: a new draw waits its turn; a draw already owed merges (`OwedHistoryLine.merged`).
    mutating func owe(_ line: OwedHistoryLine) {
        guard var entry = entries[line.drawId] else {
            entries[line.drawId] = Entry(line: line)
            waiting.push(line.drawId)
            return
        }
        entry.line = entry.line.merged(with: line)
        if entry.sending { entry.owedAgain = true }
        entries[line.drawId] = entry
    }

    /// The lines to send now (each then counts as being sent): none while paused.
    mutating func takeDue(now: UInt64) -> [OwedHistoryLine] {
        guard now >= pausedUntil else { return [] }
        var due: [OwedHistoryLine] = []
        while inFlight < maxInFlight, let id = waiting.pop() {
            guard var entry = entries[id], !entry.sending else { continue }
            entry.sending = true
            entries[id] = entry
            inFlight += 1
            due.append(entry.line)
        }
        return due
    }

    /// When `takeDue` has something next (monotonic ns), or `nil` when nothing waits or the
    /// sends in flight will call again.
    func nextDue(now: UInt64) -> UInt64? {
        guard !waiting.isEmpty, inFlight < maxInFlight else { return nil }
        return max(now, pausedUntil)
    }

    /// The cluster acknowledged the line of `drawId`.
    mutating func acknowledged(_ drawId: String) -> Acknowledged {
        failures = 0
        pausedUntil = 0
        guard var entry = entries[drawId], entry.sending else { return .settle }
        inFlight -= 1
        guard entry.owedAgain else {
            entries[drawId] = nil
            return .settle
        }
        entry.sending = false
        entry.owedAgain = false
        entries[drawId] = entry
        waiting.push(drawId)
        return .sendAgain
    }

    /// The line of `drawId` is not owed any more without an acknowledgement (refused for good,
    /// or it cannot be made): its entry goes.
    mutating func drop(_ drawId: String) {
        guard let entry = entries.removeValue(forKey: drawId), entry.sending else { return }
        inFlight -= 1
    }

    /// Sending the line of `drawId` failed at `now`: it waits its turn again, and the first
    /// failure of a round pauses every send for the next backoff step.
    mutating func failed(_ drawId: String, now: UInt64) {
        if var entry = entries[drawId], entry.sending {
            entry.sending = false
            entries[drawId] = entry
            inFlight -= 1
            waiting.push(drawId)
        }
        // Sends of one round fail together (the store is away): they count once.
        guard now >= pausedUntil else { return }
        failures += 1
        pausedUntil = now + delay(afterFailures: failures)
    }

    /// A takeover's shared record was not there at `now`: tried again like a failure, until
    /// `maxBodiesMissing`. Returns `true` when it is given up (its entry is gone).
    mutating func bodyMissing(_ drawId: String, now: UInt64) -> Bool {
        guard var entry = entries[drawId] else { return true }
        entry.bodiesMissing += 1
        entries[drawId] = entry
        guard entry.bodiesMissing < maxBodiesMissing else {
            drop(drawId)
            return true
        }
        failed(drawId, now: now)
        return false
    }

    /// The shared store is reachable again: what waits is due at once, and the backoff starts over.
    mutating func retryNow() {
        failures = 0
        pausedUntil = 0
    }

    /// The wait after `failures` failed rounds: the initial delay doubling, capped.
    func delay(afterFailures failures: Int) -> UInt64 {
        let doublings = UInt64(min(max(failures - 1, 0), 40))
        let (grown, overflow) = initialDelayNanos.multipliedReportingOverflow(by: UInt64(1) << doublings)
        return overflow ? maxDelayNanos : min(grown, maxDelayNanos)
    }
}
