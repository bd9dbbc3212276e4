import DrawCore
import Foundation

/// One draw event as it travels between the nodes of a cluster (docs/SCALING.md, "Event
/// messages"): published once by the node running the draw on the room's channel, forwarded by
/// every other node with viewers in the room.
///
/// The format is a one-line JSON header, a newline, then two byte sections whose lengths the
/// header gives:
///
///     {"v":1,"node":"node-1a2b","kind":"round","drawId":"…","index":2,"plannedAt":…,"sentAt":…,"wire":163,"view":120}\n<wire><view>
///
/// - `wire` is the message exactly as the running node sent its own viewers (docs/PROTOCOL.md),
///   so every node forwards the same bytes: the same rounds, the same result, the same times.
/// - `view` is what a snapshot needs from this event (`WireMessages.snapshot…` parts): the
///   running draw's head for `started`, the round's snapshot entry for `round`, the result for
///   `finished`, nothing otherwise. `RemoteRoomView` folds them into a snapshot.
/// - `entrants` (only in `started`, with `entrantsHash` in the header) is the draw's entrants list
///   (`EntrantsEncoding.canonicalJSON`), which protocol v2 no longer puts in `wire`: every node
///   with viewers then has it in memory for the entrants endpoint and its v1 clients. A header
///   without the field means none (the section is absent).
/// - A `round` without `index` carries a per-winner message (`winner`, `next`): forwarded, and its
///   `view` is the draw's `progress` after it (`WireMessages.snapshotProgressObject`), so a joiner
///   on any node sees the winners revealed so far and whether the draw waits for the host.
/// - `plannedAt` is when the event was due (a round: the draw's start plus the round's offset),
///   `sentAt` when the running node sent it; a receiving node measures its lateness against
///   `plannedAt` with its own clock.
/// - `token` (draw events only) is the fencing token of the lease the draw runs under (issue 27):
///   a receiver drops an event whose token is older than the newest it has seen for the room.
/// The header is built by `JSONWriter` and read with `JSONDecoder`; a message that does not parse
/// is dropped by the receiver (`decode` answers `nil`).
public struct ClusterEnvelope: Sendable, Hashable {
    /// The format's version; a receiver drops other versions rather than guess.
    public static let version = 1

    public enum Kind: String, Sendable, Hashable, Decodable {
        case loading, started, round, finished, failed, aborted
        /// The room was deleted through the sending node; `wire` is the `room_deleted` error.
        case deleted
        /// The room's list or settings changed through the sending node; `wire` is the `room`
        /// message. Not a draw event: it leaves the stored view alone.
        case room

        /// Whether it ends a draw (`finished`, `failed`, `aborted`).
        public var endsDraw: Bool {
            switch self {
            case .finished, .failed, .aborted: return true
            case .loading, .started, .round, .deleted, .room: return false
            }
        }
    }

    public var node: String
    public var kind: Kind
    public var drawId: String?
    /// The round's index (0-based) for `round`.
    public var index: Int?
    public var plannedAt: Double
    public var sentAt: Double
    public var wire: [UInt8]
    public var view: [UInt8]
    /// The draw's entrants (`started` only; empty otherwise) and their hash.
    public var entrants: [UInt8] = []
    public var entrantsHash: String?
    /// The fencing token of the lease the draw runs under (`nil`: no draw event, or an older node).
    public var token: UInt64?

    public init(node: String, kind: Kind, drawId: String? = nil, index: Int? = nil, plannedAt: Double, sentAt: Double,
                wire: [UInt8], view: [UInt8] = [], entrants: [UInt8] = [], entrantsHash: String? = nil, token: UInt64? = nil) {
        self.node = node
        self.kind = kind
        self.drawId = drawId
        self.index = index
        self.plannedAt = plannedAt
        self.sentAt = sentAt
        self.wire = wire
        self.view = view
        self.entrants = entrants
        self.entrantsHash = entrantsHash
        self.token = token
    }

    /// The envelope of `event`, whose wire message the running node encoded as `wire`; `now` is
    /// its send time (epoch ms), `roundDueAt` when a round was due by the plan (the draw's start
    /// plus the round's offset; the round's own `sentAt` if not given). `entrants` is the list a
    /// `started` carries along (ignored for other events); `progress` is where a draw that reveals
    /// each winner stands after a `winner` or `nextWinner` event (the running session's
    /// `revealProgress`; ignored for other events).
    public init(event: DrawEvent, wire: [UInt8], node: String, now: Double, roundDueAt: Double? = nil,
                entrants: [UInt8] = [], progress: RevealProgress? = nil) {
        switch event {
        case .loading(let at):
            self.init(node: node, kind: .loading, plannedAt: at, sentAt: now, wire: wire)
        case .started(let plan, let startedAt):
            self.init(node: node, kind: .started, drawId: plan.drawId, plannedAt: startedAt, sentAt: now, wire: wire,
                      view: WireMessages.snapshotDrawHead(plan, startedAt: startedAt), entrants: entrants,
                      entrantsHash: entrants.isEmpty ? nil : plan.entrantsHash)
        case .round(let plan, let index, let sentAt):
            self.init(node: node, kind: .round, drawId: plan.drawId, index: index, plannedAt: roundDueAt ?? sentAt, sentAt: now,
                      wire: wire, view: WireMessages.snapshotRound(plan, index: index, sentAt: sentAt))
        case .finished(let plan, let startedAt, let finishedAt):
            self.init(node: node, kind: .finished, drawId: plan.drawId, plannedAt: finishedAt, sentAt: now, wire: wire,
                      view: WireMessages.snapshotLastResult(FinishedDraw(plan: plan, startedAt: startedAt,
                                                                         finishedAt: finishedAt)))
        case .failed:
            self.init(node: node, kind: .failed, plannedAt: now, sentAt: now, wire: wire)
        case .aborted(let plan, _, _):
            self.init(node: node, kind: .aborted, drawId: plan.drawId, plannedAt: now, sentAt: now, wire: wire)
        case .winner(let plan, _, _, _), .nextWinner(let plan, _, _):
            // A `round` without an `index`: receivers forward its wire as it is and keep the
            // progress it brings for their snapshots (none after the last winner: `finished` follows).
            self.init(node: node, kind: .round, drawId: plan.drawId, plannedAt: now, sentAt: now, wire: wire,
                      view: progress.map { WireMessages.snapshotProgressObject($0, plan: plan) } ?? [])
        }
    }

    /// The bytes published.
    public func encode() -> [UInt8] {
        var w = JSONWriter(capacity: 192)
        w.beginObject()
        w.field("v", Self.version)
        w.field("node", node)
        w.field("kind", kind.rawValue)
        if let drawId { w.field("drawId", drawId) }
        if let index { w.field("index", index) }
        w.field("plannedAt", millis: plannedAt)
        w.field("sentAt", millis: sentAt)
        w.field("wire", wire.count)
        w.field("view", view.count)
        // Tokens come from Redis integers (signed 64-bit), so they fit an `Int`.
        if let token, let value = Int(exactly: token) { w.field("token", value) }
        if let entrantsHash, !entrants.isEmpty {
            w.field("entrants", entrants.count)
            w.field("entrantsHash", entrantsHash)
        }
        w.endObject()
        return w.bytes + [UInt8(ascii: "\n")] + wire + view + entrants
    }

    private struct Header: Decodable {
        let v: Int
        let node: String
        let kind: Kind
        let drawId: String?
        let index: Int?
        let plannedAt: Double
        let sentAt: Double
        let wire: Int
        let view: Int
        let entrants: Int?
        let entrantsHash: String?
        let token: UInt64?

        /// Whether every number is one a node writes. Anyone who can publish to Redis can send
        /// any number, and a receiver does arithmetic with them (lateness in nanoseconds, a
        /// round's place, re-encoded times): one out of range is a malformed message, not a trap.
        var isInRange: Bool {
            EpochMillis.isInRange(plannedAt) && EpochMillis.isInRange(sentAt)
                && (index ?? 0) >= 0 && wire >= 0 && view >= 0 && (entrants ?? 0) >= 0
                // `encode` writes tokens as `Int`s (they come from Redis' signed integers).
                && (token ?? 0) <= UInt64(Int64.max)
        }
    }

    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// Reads a published message; `nil` when it is not one this version wrote (the sections'
    /// lengths are checked against what arrived, so a cut message is dropped, not misread; every
    /// section must be valid UTF-8; every number must be in the range a node writes).
    public static func decode(_ bytes: [UInt8]) -> ClusterEnvelope? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<newline])),
              header.v == version, header.isInRange else { return nil }
        let body = bytes[(newline + 1)...]
        let (partial, overflow) = header.wire.addingReportingOverflow(header.view)
        let (total, overflow2) = partial.addingReportingOverflow(header.entrants ?? 0)
        guard !overflow, !overflow2, body.count == total else { return nil }
        let wireEnd = body.startIndex + header.wire, viewEnd = wireEnd + header.view
        // Every section is text (`wire` goes out to viewers as a text frame, as it came): invalid
        // UTF-8 is no envelope a node wrote.
        guard isUTF8(body[..<wireEnd]), isUTF8(body[wireEnd..<viewEnd]), isUTF8(body[viewEnd...]) else { return nil }
        return ClusterEnvelope(node: header.node, kind: header.kind, drawId: header.drawId, index: header.index,
                               plannedAt: header.plannedAt, sentAt: header.sentAt,
                               wire: Array(body[..<wireEnd]), view: Array(body[wireEnd..<viewEnd]),
                               entrants: Array(body[viewEnd...]), entrantsHash: header.entrantsHash, token: header.token)
    }
}
