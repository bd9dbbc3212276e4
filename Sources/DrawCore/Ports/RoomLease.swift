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
/// Synchronous and blocking (a network round trip, bounded by the implementation's timeout): call
/// it from a thread that may wait, never the service thread. Safe to call from several threads.
public protocol RoomLease: Sendable {
    /// Takes the room's lease for `ttlMs` milliseconds if nobody holds it. Returns whether this
    /// call took it; `false` if it is held, also if `owner` itself holds it (use `renew`).
    func acquire(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> Bool

    /// Extends the lease to `ttlMs` milliseconds from now if `owner` holds it. Returns `false` if
    /// it does not (expired, released, or held by another).
    func renew(room: String, owner: String, ttlMs: Int) throws(CoordinationError) -> Bool

    /// Gives the lease up if `owner` holds it. Returns `false` if it does not (nothing changes).
    @discardableResult
    func release(room: String, owner: String) throws(CoordinationError) -> Bool

    /// The owner holding the room's lease now, or `nil` if it is free.
    func owner(ofRoom room: String) throws(CoordinationError) -> String?
}
