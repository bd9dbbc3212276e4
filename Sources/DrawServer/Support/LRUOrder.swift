/// Keys in the order they were last touched, oldest first, with every operation O(1).
///
/// A doubly linked list threaded through a dictionary: each key knows its neighbours, so moving
/// one to the newest end or taking it out never walks the list. Used where a bounded table has to
/// give up its least recently used entry: idle rooms (`RoomRegistry`) and the per-address room
/// creation buckets (`AddressRateLimiter`).
struct LRUOrder<Key: Hashable> {
    private struct Links {
        var older: Key?
        var newer: Key?
    }

    private var links: [Key: Links] = [:]
    /// The least recently touched key.
    private(set) var oldest: Key?
    private var newest: Key?

    var count: Int { links.count }
    var isEmpty: Bool { links.isEmpty }

    func contains(_ key: Key) -> Bool { links[key] != nil }

    /// Makes `key` the newest, adding it when absent.
    mutating func touch(_ key: Key) {
        if newest == key { return }
        remove(key)
        links[key] = Links(older: newest, newer: nil)
        if let previous = newest { links[previous]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    /// Takes `key` out; false when it was not there.
    @discardableResult
    mutating func remove(_ key: Key) -> Bool {
        guard let l = links.removeValue(forKey: key) else { return false }
        if let older = l.older { links[older]?.newer = l.newer } else { oldest = l.newer }
        if let newer = l.newer { links[newer]?.older = l.older } else { newest = l.older }
        return true
    }

    /// Takes out and returns the oldest key.
    mutating func popOldest() -> Key? {
        guard let key = oldest else { return nil }
        remove(key)
        return key
    }

    /// Keys from oldest to newest (tests; O(n)).
    var keysOldestFirst: [Key] {
        var out: [Key] = []
        var cursor = oldest
        while let k = cursor {
            out.append(k)
            cursor = links[k]?.newer
        }
        return out
    }
}
