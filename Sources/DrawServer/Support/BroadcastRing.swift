/// A room's recent broadcasts, numbered by sequence; each client only keeps a cursor into it.
///
/// This is what keeps fan-out lean: a message is stored once, and "enqueueing" it for a client
/// costs nothing but comparing the client's cursor with `nextSeq`. The ring holds `capacity`
/// messages, equal to the per-client outbound limit, so any client that is not yet closed as
/// too slow finds every message it still owes in the ring.
struct BroadcastRing<Element> {
    let capacity: Int
    private var slots: [Element?]
    /// Sequence number the next appended message gets (= messages appended so far).
    private(set) var nextSeq: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
        slots = Array(repeating: nil, count: capacity)
    }

    /// Stores a message, overwriting the oldest when full. Returns its sequence number.
    @discardableResult
    mutating func append(_ element: Element) -> UInt64 {
        let seq = nextSeq
        slots[Int(seq % UInt64(capacity))] = element
        nextSeq += 1
        return seq
    }

    /// The message with sequence `seq`, or `nil` when it was overwritten or not appended yet.
    func element(at seq: UInt64) -> Element? {
        guard seq < nextSeq, nextSeq - seq <= UInt64(capacity) else { return nil }
        return slots[Int(seq % UInt64(capacity))]
    }

    /// How many messages a client with this cursor still has to send.
    func pending(from cursor: UInt64) -> Int {
        cursor >= nextSeq ? 0 : Int(nextSeq - cursor)
    }
}
