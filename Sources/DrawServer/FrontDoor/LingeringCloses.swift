/// The connections the front door answered itself and is closing gracefully: each answer is sent
/// and its sending side shut, and what the client still sends is read and dropped until it
/// closes too, or its time (`lingerNanos`) or byte budget (`lingerBytes`) runs out. Closing at
/// once with unread input would make the kernel answer with a reset, which can destroy the
/// answer before the client reads it.
///
/// A value: the front door reads, watches and closes the descriptors; this says which linger,
/// how much more each may send, and which are out of time. Times are passed in, so tests drive
/// it without sockets or a clock. Service thread only.
struct LingeringCloses {
    static let lingerNanos: UInt64 = 2_000_000_000
    static let lingerBytes = 64 * 1024

    private struct Linger {
        /// Tells this connection apart from a later one with the same descriptor number.
        let id: UInt64
        let until: UInt64
        var budget: Int
    }

    private var lingering: [Int32: Linger] = [:]
    /// The same, in the order they began (and so of their deadlines): one that ended early is
    /// skipped when it comes up (its id no longer matches, also when its number was reused).
    private var order = FIFO<(Int32, UInt64)>()

    var count: Int { lingering.count }
    var isEmpty: Bool { lingering.isEmpty }
    /// The descriptors lingering now.
    var descriptors: [Int32] { Array(lingering.keys) }

    func contains(_ fd: Int32) -> Bool { lingering[fd] != nil }

    /// `fd` (request `id`) was answered and shut for sending at `now`.
    mutating func begin(_ fd: Int32, id: UInt64, at now: UInt64) {
        lingering[fd] = Linger(id: id, until: now &+ Self.lingerNanos, budget: Self.lingerBytes)
        order.push((fd, id))
    }

    /// `n` more bytes were read from `fd` and dropped: false when that spent its budget (end it).
    mutating func drained(_ n: Int, from fd: Int32) -> Bool {
        guard var l = lingering[fd] else { return false }
        l.budget -= n
        lingering[fd] = l
        return l.budget > 0
    }

    /// Forgets `fd`: true if it was lingering (the caller closes it).
    mutating func end(_ fd: Int32) -> Bool {
        lingering.removeValue(forKey: fd) != nil
    }

    /// The lingering closes whose time is up at `now`, oldest first, forgotten here: the caller
    /// closes them.
    mutating func expired(now: UInt64) -> [Int32] {
        var due: [Int32] = []
        while let (fd, id) = order.first {
            guard let l = lingering[fd], l.id == id else { _ = order.pop(); continue }
            guard now >= l.until else { break }
            _ = order.pop()
            lingering[fd] = nil
            due.append(fd)
        }
        return due
    }
}
