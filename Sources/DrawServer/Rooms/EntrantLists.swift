import DrawCore
import Foundation

/// One draw's entrants as `GET /api/draws/ID/entrants` serves them: the canonical JSON
/// (`EntrantsEncoding`, whose SHA-256 is the draw's `entrantsHash`) and that hash, the ETag.
struct EntrantList: Sendable {
    let hash: String
    let json: [UInt8]

    /// The strong ETag: the list is fixed for the draw, and the hash names exactly these bytes.
    var etag: String { "\"\(hash)\"" }
}

/// The entrant lists of recent draws, encoded once per draw and kept in memory: for the entrants
/// endpoint (so a crowd opening the list costs one encoding, not one per request) and for v1
/// clients, whose messages carry the list (`WireMessages.v1`).
///
/// Filled from this node's plans (`list(for:)`), from other nodes' `started` events (cluster
/// mode) and from the store or Redis when a request asks for an older draw. Bounded by count and
/// bytes, least recently used out first; a draw that drops out is encoded again on its next use.
///
/// Threading: any thread (a lock): the service thread fills it from plans and events, the storage
/// thread from records.
final class EntrantLists: @unchecked Sendable {
    private let lock = NSLock()
    private var lists: [String: EntrantList] = [:]
    private var order = LRUOrder<String>()
    private var bytes = 0
    let maxLists: Int
    let maxBytes: Int

    init(maxLists: Int = 16, maxBytes: Int = 256 << 20) {
        self.maxLists = max(1, maxLists)
        self.maxBytes = maxBytes
    }

    /// The list of `drawId`, if kept.
    func list(drawId: String) -> EntrantList? {
        lock.withLock {
            guard let list = lists[drawId] else { return nil }
            order.touch(drawId)
            return list
        }
    }

    /// The JSON of `drawId`'s list, if kept (`WireMessages.v1`'s look-up).
    func json(drawId: String) -> [UInt8]? { list(drawId: drawId)?.json }

    /// The plan's list, encoded now unless kept already.
    @discardableResult
    func list(for plan: DrawPlan) -> EntrantList {
        list(drawId: plan.drawId, hash: plan.entrantsHash, players: plan.entrants)
    }

    /// A draw's list from its players (a plan's, a record's), encoded now unless kept already.
    @discardableResult
    func list(drawId: String, hash: String, players: [Player]) -> EntrantList {
        if let kept = list(drawId: drawId) { return kept }
        let list = EntrantList(hash: hash, json: EntrantsEncoding.canonicalJSON(players))
        keep(list, drawId: drawId)
        return list
    }

    /// Keeps a list encoded elsewhere (another node's, Redis').
    func keep(_ list: EntrantList, drawId: String) {
        lock.withLock {
            if let old = lists[drawId] { bytes -= old.json.count }
            lists[drawId] = list
            bytes += list.json.count
            order.touch(drawId)
            // The newest always stays, even alone over the byte budget: it is the one in use.
            while lists.count > 1, lists.count > maxLists || bytes > maxBytes, let oldest = order.popOldest() {
                if let gone = lists.removeValue(forKey: oldest) { bytes -= gone.json.count }
            }
        }
    }
}
