/// A small first-in-first-out queue (no per-pop shifting).
/// Used for a client's private messages (snapshot, error, pong).
///
/// Drained, it frees its storage: private messages are rare after the snapshot, and with
/// 10,000 viewers an idle buffer per client is memory for nothing (issue 7's RSS target).
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }

    /// The element `pop()` would return, left in place.
    var first: Element? { head < items.count ? items[head] : nil }

    mutating func push(_ e: Element) { items.append(e) }

    mutating func pop() -> Element? {
        guard head < items.count else { return nil }
        let e = items[head]
        head += 1
        if head == items.count {
            // Drained: free the storage (see above).
            items.removeAll()
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            // A queue that is never empty (requests arriving all the time) must not keep every
            // element it ever held: drop the consumed half, amortised O(1) per pop.
            items.removeFirst(head)
            head = 0
        }
        return e
    }

    mutating func removeAll() {
        items.removeAll()
        head = 0
    }
}
