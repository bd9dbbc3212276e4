/// Which scheduled draws one node knows of and what each needs now (issue 30): a pure value, so
/// its rules are tested without a clock, a timer or a store. The server's `DrawScheduler` feeds
/// it (a draw kept, a store read, the time) and performs what it answers (claim, start, record
/// missed, arm the timer).
///
/// A draw leaves `waiting` for good when this node acts on it (its time, a cancel): its id is
/// remembered, so a store read that began before (cluster mode) does not bring it back.
public struct ScheduledDrawBook: Sendable {
    /// Draws waiting for their time, by room (one per room).
    public private(set) var waiting: [String: ScheduledDraw] = [:]
    /// Rooms whose scheduling is on its way (the list being read, the store writing).
    public private(set) var scheduling: Set<String> = []
    /// Draws this node claimed and could not start yet (their room busy), by id.
    public private(set) var retrying: [String: ScheduledDraw] = [:]
    /// Draws whose claim failed (the store unreachable), by id: not due again before this time,
    /// so a store that is down is asked once a retry period, not at every wake-up.
    private var claimRetryAt: [String: Double] = [:]
    /// Ids of the draws this node acted on.
    private var handled: Set<String> = []
    /// At most this many ids are remembered; ids are random, so a forgotten one never comes back.
    static let handledLimit = 10_000

    public init() {}

    /// What the node does with a draw, now. `claimed`: this node holds it already (a retry);
    /// otherwise it claims it first (`ScheduledDrawStore.claim`), and acts only if it got it.
    public enum Action: Sendable, Hashable {
        /// Start it.
        case start(ScheduledDraw, claimed: Bool)
        /// Record it missed (seed revealed).
        case miss(ScheduledDraw, claimed: Bool)
    }

    /// The draw waiting for `drawId`, if any.
    public func waiting(drawId: String) -> ScheduledDraw? { waiting.values.first { $0.drawId == drawId } }

    /// Whether `room` may schedule a draw now (none waits, none is being scheduled).
    public func mayBegin(room: String) -> Bool { waiting[room] == nil && !scheduling.contains(room) }

    /// A scheduling began; false (nothing changes) when the room may not schedule.
    public mutating func begin(room: String) -> Bool {
        guard mayBegin(room: room) else { return false }
        scheduling.insert(room)
        return true
    }

    /// The scheduling of `room` ended: with the draw kept, or refused (`nil`).
    public mutating func end(room: String, kept draw: ScheduledDraw?) {
        scheduling.remove(room)
        if let draw { waiting[room] = draw }
    }

    /// The draws the store holds (startup; cluster mode, every few seconds): new ones join, ones
    /// gone from it (claimed or cancelled through another node) leave. Returns the rooms whose
    /// scheduled draw changed.
    @discardableResult
    public mutating func merge(_ found: [ScheduledDraw]) -> Set<String> {
        var changed: Set<String> = []
        let kept = Dictionary(found.map { ($0.room, $0) }, uniquingKeysWith: { first, _ in first })
        for (room, draw) in waiting where kept[room]?.drawId != draw.drawId {
            waiting[room] = nil
            claimRetryAt[draw.drawId] = nil
            changed.insert(room)
        }
        for draw in found where mayBegin(room: draw.room) && !handled.contains(draw.drawId) {
            waiting[draw.room] = draw
            changed.insert(draw.room)
        }
        return changed
    }

    /// The host cancels `room`'s draw: it leaves for good. `nil` when none waits.
    public mutating func takeForCancel(room: String) -> ScheduledDraw? {
        guard let draw = waiting.removeValue(forKey: room) else { return nil }
        remember(draw)
        return draw
    }

    /// A draw found in the store for a cancel (cluster mode: scheduled through another node):
    /// `nil` when this node acted on it already.
    public mutating func takeForCancel(found draw: ScheduledDraw) -> ScheduledDraw? {
        guard !handled.contains(draw.drawId) else { return nil }
        waiting[draw.room] = nil
        remember(draw)
        return draw
    }

    /// Every draw whose time came at `now`, and what to do with it; they leave `waiting` for
    /// good. Then the claimed draws to try again (they leave `retrying`).
    public mutating func due(now: Double, window: ScheduleWindow) -> [Action] {
        var actions: [Action] = []
        for draw in waiting.values.sorted(by: { $0.at < $1.at }) where claimRetryAt[draw.drawId].map({ now >= $0 }) ?? true {
            switch window.due(at: draw.at, now: now) {
            case .wait: continue
            case .startNow: actions.append(.start(draw, claimed: false))
            case .missed: actions.append(.miss(draw, claimed: false))
            }
            waiting[draw.room] = nil
            remember(draw)
        }
        let again = retrying.values.sorted { $0.at < $1.at }
        retrying = [:]
        return actions + again.map { window.due(at: $0.at, now: now) == .startNow ? .start($0, claimed: true) : .miss($0, claimed: true) }
    }

    /// A claimed draw could not start (its room busy): tried again at the next wake-up.
    public mutating func retry(_ draw: ScheduledDraw) { retrying[draw.drawId] = draw }

    /// A claim failed (the store was unreachable) or came early (the store's clock says the time
    /// has not come): the draw waits again, due no sooner than `retryAt` (by this node's clock
    /// its time has come already: without it, every wake-up would be at once).
    public mutating func unclaimed(_ draw: ScheduledDraw, retryAt: Double) {
        handled.remove(draw.drawId)
        waiting[draw.room] = draw
        claimRetryAt[draw.drawId] = retryAt
    }

    /// When the next wake-up is due, in ms from `now`: the soonest draw's time, or `retryMs` for
    /// a draw to try again; `nil` when nothing waits.
    public func nextWakeMs(now: Double, retryMs: Double) -> Double? {
        let soonest = waiting.values.map { max(0, max($0.at, claimRetryAt[$0.drawId] ?? $0.at) - now) }.min()
        guard !retrying.isEmpty else { return soonest }
        return min(soonest ?? retryMs, retryMs)
    }

    private mutating func remember(_ draw: ScheduledDraw) {
        claimRetryAt[draw.drawId] = nil
        if handled.count >= Self.handledLimit { handled.removeAll() }
        handled.insert(draw.drawId)
    }
}
