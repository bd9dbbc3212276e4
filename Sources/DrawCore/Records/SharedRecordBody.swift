/// A draw's record body (`GET /api/draws/ID`) as the cluster keeps it (`SharedDrawRecords.keep`,
/// issue 44): the bytes around its entrant list, and the list itself, which the shared store keeps
/// once under its hash for every draw of it (as SQLite's `EntrantListTable` does). A record then
/// costs the same few kilobytes whatever the list's size, and reads back whole (`whole`).
///
/// The list is the body's own bytes between `head` and `tail`, hashed here, so the hash always
/// names exactly what the body held and `whole` gives the body back byte for byte.
public struct SharedRecordBody: Sendable, Hashable {
    /// The body up to where the list starts.
    public let head: [UInt8]
    /// The body after the list.
    public let tail: [UInt8]
    /// The list, `nil` for a body kept whole (no list worth sharing: a draw that failed before
    /// its plan had one).
    public let entrants: SharedEntrantList?

    /// A body kept whole.
    public init(whole body: [UInt8]) {
        head = body
        tail = []
        entrants = nil
    }

    /// `body` with its list at `range` kept apart; whole when the range is not inside the body or
    /// holds no more than an empty array's two bytes.
    public init(splitting body: [UInt8], entrantsAt range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= body.count, range.count > 2 else {
            self.init(whole: body)
            return
        }
        let list = Array(body[range])
        self.init(head: Array(body[..<range.lowerBound]), tail: Array(body[range.upperBound...]),
                  entrants: SharedEntrantList(hash: SHA256Hex.of(list), json: list))
    }

    /// The parts as read back from a store: `entrants` goes between `head` and `tail`.
    public init(head: [UInt8], tail: [UInt8], entrants: SharedEntrantList?) {
        self.head = head
        self.tail = tail
        self.entrants = entrants
    }

    /// The body as it was written: head, list, tail.
    public var whole: [UInt8] {
        guard let entrants else { return head + tail }
        var out: [UInt8] = []
        out.reserveCapacity(head.count + entrants.json.count + tail.count)
        out += head
        out += entrants.json
        out += tail
        return out
    }
}
