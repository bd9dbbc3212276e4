import DrawCore

/// Where a draw's steps become durable before anyone sees them (issue 36, "durable before
/// visible"): every step a room's runner publishes (`loading`, `started`, each round, each
/// winner, each end) is appended here first, and shown to this node's viewers only once the
/// append was acknowledged where the draw's truth lives.
///
/// - One node (`SingleNodeRooms`): the truth is the node's SQLite store, and `DrawSession`
///   already writes the plan before `started` and the result before `finished`; the append
///   answers at once.
/// - Cluster mode (`FencedDraws`): the truth is the room's shared record in Redis. Each step is
///   one fenced entry under the draw's lease token (`FencedDrawLog`), which also publishes it to
///   the other nodes; the running node's own viewers get it once Redis acknowledged that entry,
///   at the same moment as everyone else's. A node that cannot append holds (the runner waits,
///   `isAppending`) and retries; a refused entry (a newer lease holds the room) is shown to
///   nobody, and this node's viewers get the end the cluster recorded instead.
///
/// Service thread only.
protocol DrawStepLog: AnyObject {
    /// Makes `event` of the draw running here in `room` durable, then calls `show` (its wire
    /// bytes are `wire`), in the order the steps were appended. `show` is never called for a
    /// step the record refused.
    func append(_ event: DrawEvent, wire: [UInt8], from room: Room, then show: @escaping () -> Void)
    /// Whether a step of `room`'s draw is appended but not acknowledged yet: the draw's next step
    /// waits for it (`DrawRunner`), and so does a joiner's snapshot.
    func isAppending(_ room: String) -> Bool
    /// Calls `then` once every step appended for `room` is durable (true), or the record refused
    /// the room's draw (false: another lease holds the room).
    func whenAppended(_ room: String, then: @escaping (Bool) -> Void)
}
