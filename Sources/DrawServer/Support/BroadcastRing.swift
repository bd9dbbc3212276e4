/// A room's recent broadcasts, numbered by sequence; each client only keeps a cursor into it.
///
/// This is what keeps fan-out lean: a message is stored once, and "enqueueing" it for a client
/// costs nothing but comparing the client's cursor with `nextSeq`. The ring holds `capacity`
/// messages, equal to the per-client outbound limit, so any client that is not yet closed as
/// too slow finds every message it still owes in the ring.
///
/// The slots are allocated by the first `append` and given back by `releaseStorage()`, so a room
/// that nobody watches and where no draw runs holds no ring (issue 11: thousands of empty rooms).
struct BroadcastRing<Element> {
    let capacity: Int
    /// Empty until the first `append`, and again after `releaseStorage()`.
    private var slots: [Element?] = []
    /// Sequence number the next appended message gets (= messages appended so far).
    private(set) var nextSeq: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
    }

    /// Whether the slots are allocated (tests).
    var hasStorage: Bool { !slots.isEmpty }

    /// Stores a message, overwriting the oldest when full. Returns its sequence number.
    @discardableResult
    mutating func append(_ element: Element) -> UInt64 {
        if slots.isEmpty { slots = Array(repeating: nil, count: capacity) }
        let seq = nextSeq
        slots[Int(seq % UInt64(capacity))] = element
        nextSeq += 1
        return seq
    }

    /// The message with sequence `seq`, or `nil` when it was overwritten, released or not
    /// appended yet.
    func element(at seq: UInt64) -> Element? {
        guard !slots.isEmpty, seq < nextSeq, nextSeq - seq <= UInt64(capacity) else { return nil }
        return slots[Int(seq % UInt64(capacity))]
    }

    /// Frees the slots and the messages in them. Only when no cursor still needs them (the room
    /// has no members); `nextSeq` stays, so sequence numbers never repeat.
    mutating func releaseStorage() {
        slots = []
    }

    /// How many messages a client with this cursor still has to send.
    func pending(from cursor: UInt64) -> Int {
        cursor >= nextSeq ? 0 : Int(nextSeq - cursor)
    }
}
