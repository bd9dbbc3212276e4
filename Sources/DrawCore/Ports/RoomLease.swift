/// A lease on a room shared by every node of a cluster: at most one owner holds it at a time, and
/// it lapses by itself if its owner stops renewing it (the owner's node died).
///
/// Meant for cluster mode's draw lock (issue 14, docs/SCALING.md): the node that starts a draw in a
/// room acquires the room's lease with its own owner id (one per node and draw), renews it well
/// within the TTL while the draw runs, and releases it when the draw ends. Another node that finds
/// the lease free while the room's draw is still marked running knows that draw's node is gone.
///
/// Only the owner can renew or release: a call with another owner id changes nothing and returns
/// `false`, so a node that lost its lease (it was paused longer than the TTL and another node took
/// over) can never extend or drop the new owner's lease.
///
/// Fencing (issue 27, docs/SCALING.md "Fencing"): every grant carries a token that only grows,
/// also across a restart of the shared store (empty or not), and every shared write of the
/// draw carries it (`FencedDrawLog`): a node paused past its lease, whose lease another node took,
/// holds an older token than the room's, and its writes are refused.
///
/// Synchronous and blocking (a network round trip, bounded by the implementation's timeout): call
/// it from a thread that may wait, never the service thread. Safe to call from several threads.
public protocol RoomLease: Sendable {
    /// Takes the room's lease for `ttlMs` milliseconds if nobody holds it. Returns the grant's
    /// fencing token (greater than any the room had); `nil` if it is held, also if `owner` itself
    /// holds it (use `renew`).
    func acquire(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> UInt64?

    /// Extends the lease to `ttlMs` milliseconds from now if `owner` holds it with `token`. A
    /// lease that lapsed (or was lost with an empty restart of the store) is taken back with the
    /// same token as long as no newer token was granted for the room meanwhile.
    func renew(room: String, owner: String, token: UInt64, ttlMs: Int) throws(CoordinationError) -> LeaseRenewal

    /// Gives the lease up if `owner` holds it. Returns `false` if it does not (nothing changes).
    @discardableResult
    func release(room: String, owner: String) throws(CoordinationError) -> Bool

    /// The owner holding the room's lease now, or `nil` if it is free.
    func owner(ofRoom room: String) throws(CoordinationError) -> String?
}

/// What `RoomLease.renew` found.
public enum LeaseRenewal: Sendable, Hashable {
    /// Still held: extended.
    case kept
    /// It had lapsed and nobody was granted the room since: taken back with the same token.
    case retaken
    /// Another grant came since (a newer token) or another owner holds it: the lease is lost.
    case refused
}
