/// A small first-in-first-out queue that reuses its storage (no per-pop shifting).
/// Used for a client's private messages (snapshot, error, pong).
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }

    mutating func push(_ e: Element) { items.append(e) }

    mutating func pop() -> Element? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count {
            // Drained: reset in place, keeping the capacity for the next burst.
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return e
    }

    mutating func removeAll() {
        items.removeAll()
        head = 0
    }
}
