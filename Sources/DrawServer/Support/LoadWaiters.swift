/// Who is waiting for which room to come back from the store, so that any number of joins of
/// one unloaded room share one load, and a flood of joins cannot grow memory without limit.
/// A pure value (tests drive it directly); `RoomDirectory` keeps one on the service thread.
///
/// Bounds, each refusing with `.refused` rather than growing:
/// - `maxNames`: loads in flight at once (distinct names). Each is a job queued on the storage
///   thread; a flood of joins to many unknown names takes these first.
/// - `maxPerName`: waiters of one name (a crowd reconnecting to one room after a restart);
/// - `maxTotal`: waiters over all names.
/// Every waiter is an open connection, so the server's connection limit bounds them too; the
/// caps make the bound explicit and cheaper.
struct LoadWaiters<Waiter> {
    /// What `add` did with a waiter.
    enum Admission: Equatable {
        /// The first waiter of its name: the caller starts the load.
        case startLoad
        /// Joined a load already in flight.
        case joined
        /// Over a cap: the waiter was not kept.
        case refused
    }

    let maxNames: Int
    let maxPerName: Int
    let maxTotal: Int
    private var byName: [String: [Waiter]] = [:]
    /// Waiters over all names.
    private(set) var count = 0

    init(maxNames: Int, maxPerName: Int, maxTotal: Int) {
        self.maxNames = max(1, maxNames)
        self.maxPerName = max(1, maxPerName)
        self.maxTotal = max(1, maxTotal)
    }

    /// Loads in flight.
    var loading: Int { byName.count }

    /// Whether a load of `name` is in flight.
    func isLoading(_ name: String) -> Bool { byName[name] != nil }

    /// Keeps `waiter` until `take(name)`, unless a cap is reached.
    mutating func add(_ waiter: Waiter, for name: String) -> Admission {
        guard count < maxTotal else { return .refused }
        if byName[name] != nil {
            guard byName[name]!.count < maxPerName else { return .refused }
            byName[name]!.append(waiter)
            count += 1
            return .joined
        }
        guard byName.count < maxNames else { return .refused }
        byName[name] = [waiter]
        count += 1
        return .startLoad
    }

    /// The load of `name` came back: every waiter of it, in arrival order; none are kept after.
    mutating func take(_ name: String) -> [Waiter] {
        guard let waiters = byName.removeValue(forKey: name) else { return [] }
        count -= waiters.count
        return waiters
    }

    /// Forgets every waiter (teardown).
    mutating func removeAll() {
        byName.removeAll()
        count = 0
    }
}
