import DrawCore
import Foundation

/// A shared history for the outbox's tests: every keep it was asked for, its answers scripted
/// (`answers`, then `.kept`), record bodies as the test sets them. Called on the test thread
/// (the outbox's hops run inline there); `@unchecked Sendable`: every field is guarded by `lock`.
final class FakeSharedRecords: SharedDrawRecords, @unchecked Sendable {
    struct Keep: Equatable {
        let drawId: String
        let room: String
        let summary: [UInt8]
        let token: UInt64
        let final: Bool
    }

    private let lock = NSLock()
    private var _keeps: [Keep] = []
    private var _answers: [Result<SharedKeepOutcome, CoordinationError>] = []
    private var _bodies: [String: [UInt8]] = [:]
    private var _missingAsked: [[String]] = []

    var keeps: [Keep] { lock.withLock { _keeps } }
    var missingAsked: [[String]] { lock.withLock { _missingAsked } }
    /// The answers of the next keeps, in order; `.kept` once they are used up.
    func answer(_ answers: [Result<SharedKeepOutcome, CoordinationError>]) { lock.withLock { _answers += answers } }
    func setBody(_ body: [UInt8]?, drawId: String) { lock.withLock { _bodies[drawId] = body } }

    func keep(drawId: String, room: String, summary: [UInt8], body: SharedRecordBody, token: UInt64,
              final: Bool) throws(CoordinationError) -> SharedKeepOutcome {
        let answer = lock.withLock { () -> Result<SharedKeepOutcome, CoordinationError> in
            _keeps.append(Keep(drawId: drawId, room: room, summary: summary, token: token, final: final))
            let next = _answers.isEmpty ? .success(.kept) : _answers.removeFirst()
            if case .success(.kept) = next { _bodies[drawId] = body.whole }
            return next
        }
        return try answer.get()
    }

    func missing(drawIds: [String]) throws(CoordinationError) -> [String] {
        lock.withLock {
            _missingAsked.append(drawIds)
            return drawIds.filter { _bodies[$0] == nil }
        }
    }

    func body(drawId: String) throws(CoordinationError) -> [UInt8]? { lock.withLock { _bodies[drawId] } }
    func page(room: String, request: DrawPageRequest) throws(CoordinationError) -> SharedDrawPage {
        SharedDrawPage(summaries: [], next: nil, roomHasDraws: false)
    }
    func keepEntrants(drawId: String, _ list: SharedEntrantList) throws(CoordinationError) {}
    func entrants(drawId: String) throws(CoordinationError) -> SharedEntrantList? { nil }
    // The ends stream: `_ends[i]`'s cursor is `"\(i)"`.
    private var _ends: [SharedEnd] = []
    private var _lines: [String: [UInt8]] = [:]
    private var _endsFailure: CoordinationError?
    private var _gap = false

    /// A draw ended: it joins the ends stream, with its line (`nil`: the room's cap let it go).
    func ended(drawId: String, room: String, position: Int64, line: [UInt8]?, body: [UInt8]) {
        lock.withLock {
            _ends.append(SharedEnd(cursor: "\(_ends.count)", drawId: drawId, room: room, position: position))
            _lines[drawId] = line
            _bodies[drawId] = body
        }
    }
    /// Reads of the ends stream fail with `error` (`nil`: they answer again).
    func failEnds(_ error: CoordinationError?) { lock.withLock { _endsFailure = error } }
    /// The next reads report a gap.
    func reportGap() { lock.withLock { _gap = true } }

    func ends(after cursor: String?, limit: Int) throws(CoordinationError) -> SharedEndsPage {
        let answer = lock.withLock { () -> Result<SharedEndsPage, CoordinationError> in
            if let failure = _endsFailure { return .failure(failure) }
            let start = cursor.flatMap { Int($0) }.map { $0 + 1 } ?? 0
            return .success(SharedEndsPage(ends: Array(_ends.dropFirst(start).prefix(limit)), gap: _gap))
        }
        return try answer.get()
    }

    func archivable(_ end: SharedEnd) throws(CoordinationError) -> ArchivedDraw? {
        lock.withLock {
            _bodies[end.drawId].map {
                ArchivedDraw(drawId: end.drawId, room: end.room, position: end.position, summary: _lines[end.drawId] ?? [],
                             body: SharedRecordBody(whole: $0))
            }
        }
    }
}
