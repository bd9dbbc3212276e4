/// Draws' records and the rooms' history where every node of a cluster reads them, so
/// `GET /api/draws/ID` and `GET /api/rooms/ROOM/draws` answer the same on every node
/// (cluster mode, docs/SCALING.md).
///
/// The running node keeps a draw here each time its own store recorded a step that changes its
/// history line (planned, started, ended, failed): the summary line and the record body. The
/// first keep of a draw gives it the next position of the cluster's history sequence, so pages
/// are keyset-paged like the store's (`DrawRecordStore.list`): newest first, a cursor is a
/// position, draws added meanwhile never make a page repeat or skip one. Synchronous and
/// blocking: call it from a thread that may wait (the server's storage thread).
public protocol SharedDrawRecords: Sendable {
    /// Keeps (or replaces) draw `drawId` of `room`: its history line (`summary`, one JSON object
    /// as the listing shows it) and its record (`body`, as `GET /api/draws/ID` returns it, its
    /// entrant list apart: the store keeps the list once under its hash and the record only
    /// references it, so a record's size does not grow with its list; issue 44).
    ///
    /// Fenced per draw, so a draw has one recorded end however many nodes write it and however
    /// often a write is retried (docs/SCALING.md, "One history"): `final` (the draw's end) is
    /// accepted when no end is claimed yet, and then claims it with `token`, or when the claim is
    /// already `token` (a retry, or the takeover's own write after it claimed the end with its
    /// `aborted`); a write that is not `final` (`running`) only while no end is claimed. Token 0
    /// ("no lease": a record reconciled after a restart, a history line restored) never matches a
    /// claim. A write whose line is already kept byte for byte is `.kept` whatever its token (a
    /// retry whose first answer was lost). The draw keeps the history position its first
    /// accepted keep gave it.
    /// - Returns: `.kept`, `.refused` when the cluster already recorded another end (final, not
    ///   an error: trying again cannot change it), or `.held` for an end of a draw still escrowed
    ///   in `room` whose end no fenced entry claimed yet (try again later).
    @discardableResult
    func keep(drawId: String, room: String, summary: [UInt8], body: SharedRecordBody, token: UInt64,
              final: Bool) throws(CoordinationError) -> SharedKeepOutcome

    /// Of `drawIds`, those no node kept a record of (lost with an empty Redis), in their order.
    func missing(drawIds: [String]) throws(CoordinationError) -> [String]

    /// The record body of draw `drawId`, whole (its list put back in), or `nil` when no node
    /// kept one.
    func body(drawId: String) throws(CoordinationError) -> [UInt8]?

    /// One page of the room's history, newest first.
    func page(room: String, request: DrawPageRequest) throws(CoordinationError) -> SharedDrawPage

    /// Keeps a draw's entrants (`EntrantsEncoding.canonicalJSON`) once its plan is public, so
    /// `GET /api/draws/ID/entrants` answers on every node, while it runs and after.
    func keepEntrants(drawId: String, _ list: SharedEntrantList) throws(CoordinationError)

    /// The entrants some node kept for `drawId`, or `nil`.
    func entrants(drawId: String) throws(CoordinationError) -> SharedEntrantList?

    /// Up to `limit` ended draws after `cursor` (`nil`: from the oldest still kept), in the
    /// order they ended: what a node copies into its `DrawArchive`.
    func ends(after cursor: String?, limit: Int) throws(CoordinationError) -> SharedEndsPage

    /// The draw `end` names as a node archives it, or `nil` when the store no longer holds its
    /// record (or `end` names no draw). Its `summary` is empty when the room's cap let its line
    /// go already: the caller makes it from the record then.
    func archivable(_ end: SharedEnd) throws(CoordinationError) -> ArchivedDraw?
}

extension SharedDrawRecords {
    /// Keeps a record body whole (no list kept apart): a body without a list worth sharing.
    @discardableResult
    public func keep(drawId: String, room: String, summary: [UInt8], body: [UInt8], token: UInt64,
                     final: Bool) throws(CoordinationError) -> SharedKeepOutcome {
        try keep(drawId: drawId, room: room, summary: summary, body: SharedRecordBody(whole: body), token: token,
                 final: final)
    }
}

/// A draw's entrants as the cluster shares them: the canonical JSON and its SHA-256 (hex), the
/// draw's `entrantsHash`.
public struct SharedEntrantList: Sendable, Hashable {
    public var hash: String
    public var json: [UInt8]

    public init(hash: String, json: [UInt8]) {
        self.hash = hash
        self.json = json
    }
}

/// What `SharedDrawRecords.keep` did.
public enum SharedKeepOutcome: Sendable, Hashable {
    /// Written (or already written by this same end: a retry).
    case kept
    /// Not written: the cluster recorded another end of the draw (another token claimed it), or
    /// a `running` line came after its end.
    case refused
    /// Not written yet: an end of a draw the room's escrow still holds, whose end no fenced entry
    /// claimed yet. The cluster has not ended that draw: its own fenced end entry (published to
    /// every node's viewers) or a takeover's will, and that end is the one recorded; until then no
    /// history line may claim it (issue 36: durable before visible, and a restarted node never
    /// claims an end the cluster has not published). Try again later.
    case held
}
