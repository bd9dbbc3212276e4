import DrawCore
import DrawPresentation

/// The seams where cluster mode plugs into the room owners, so none of them asks whether it runs
/// in a cluster: the composition (`LiveDrawServer.init`) picks one implementation of each, once.
/// One node: `SingleNodeRooms` (nothing shared, every call answers at once, its steps durable
/// once the session's own writes are). Cluster mode: `ClusterRooms`, with `FencedDraws` as the
/// `DrawStepLog` (Cluster/). Service thread only.

/// Whether a draw may start in a room, and when: one node starts at once; a cluster takes the
/// room's lease first (docs/SCALING.md).
protocol DrawStartGate: AnyObject {
    /// Starts a draw in `room` once the gate allows it. `refusal` checks the key and the server's
    /// state (run when the gate has the room's latest record); `start` starts the runner and
    /// returns why not, if it could not. `answer` gets `nil` once the draw started.
    func admit(_ room: Room, refusal: @escaping () -> ClientErrorCode?, start: @escaping () -> ClientErrorCode?,
               then answer: @escaping (ClientErrorCode?) -> Void)
    /// After any activity in `room`: what a finished draw held (a lease) is given back.
    func activity(in room: Room)
}

/// What rooms share beyond draw events: their records, views and viewers across nodes.
protocol SharedRooms: AnyObject {
    /// Wires the owners in once they exist (they are handed this one when they are made).
    func attach(directory: RoomDirectory, broadcaster: RoomBroadcaster)
    /// Why nothing that needs the shared state can be done now (`nil`: it can).
    var unavailable: ClientErrorCode? { get }
    /// The code a failed write of a room's record answers with (`what`: which write, for the log).
    func storeFailure(_ error: StorageError, what: String) -> ClientErrorCode
    /// `/healthz`'s cluster link: `nil` for one node.
    var linkUp: Bool? { get }
    /// Ended draws' records readable from every node; `nil`: each node serves its own.
    var records: (any SharedDrawRecords)? { get }
    /// This node's copy of the draws the cluster ended, read once `records` let one go; `nil`:
    /// none (one node, whose own records are its whole history).
    var archive: (any DrawArchive)? { get }

    /// Reads `room`'s record again where another node may have changed it (its key, settings,
    /// list; or deleted it); `done` gets `nil` to go on. `forViewer`: a viewer is about to join.
    func refresh(_ room: Room, forViewer: Bool, then done: @escaping (ClientErrorCode?) -> Void)
    /// Whether a room in memory must be read again before a lookup trusts it.
    func mayBeStale(_ room: Room) -> Bool
    /// Runs `go` once a viewer's lookup of `name` may read the room (cluster mode: once its
    /// channel is subscribed, so no event falls between the read and the join).
    func prepareViewer(of name: String, then go: @escaping () -> Void)
    /// What a room's load reads besides its record, on the rooms' thread (`nil`: nothing).
    func viewReader(for room: String, forViewer: Bool) -> @Sendable () -> StoredRoomView?
    /// A viewer's lookup of `name` is over (it joined, or did not).
    func lookupSettled(_ name: String)
    /// The viewers of `room` on this node changed.
    func viewersChanged(_ room: Room)
    /// The snapshot's `draw` and `lastResult` when another node's draw is what `room` shows
    /// (`nil`: the room's own state is the whole truth).
    func snapshotParts(of room: Room) -> Room.SnapshotParts?
    /// A draw write of `room` is about to be handed to the storage thread (what must be on disk
    /// no later than it is queued first).
    func recording(_ write: DrawWrite, room: String)
    /// A draw write of `room` is on this node's disk.
    func recorded(_ write: DrawWrite, room: String)
    /// The history lines this node owes the cluster, which the shutdown waits for (`nil`: none).
    var owedHistory: (any OwedHistory)? { get }
    /// `room` was deleted here; `changed`: its list or settings changed here (`wire`: the `room`
    /// message this node's viewers got).
    func deleted(_ room: Room)
    func changed(_ room: Room, wire: [UInt8])
    /// `room` left memory.
    func evicted(_ room: String)
    /// Housekeeping, once a second.
    func tick()
    /// The server stops.
    func close()
}

/// One node: nothing is shared, every start is admitted at once, every record is this node's,
/// and a step is durable once the session's own write is (`DrawStepLog`).
final class SingleNodeRooms: DrawStartGate, SharedRooms, DrawStepLog {
    func admit(_ room: Room, refusal: @escaping () -> ClientErrorCode?, start: @escaping () -> ClientErrorCode?,
               then answer: @escaping (ClientErrorCode?) -> Void) {
        answer(refusal() ?? start())
    }

    func activity(in room: Room) {}
    func append(_ event: DrawEvent, wire: [UInt8], from room: Room, then show: @escaping () -> Void) { show() }
    func isAppending(_ room: String) -> Bool { false }
    func whenAppended(_ room: String, then: @escaping (Bool) -> Void) { then(true) }

    func attach(directory: RoomDirectory, broadcaster: RoomBroadcaster) {}
    var unavailable: ClientErrorCode? { nil }
    func storeFailure(_ error: StorageError, what: String) -> ClientErrorCode { .storageUnavailable }
    var linkUp: Bool? { nil }
    var records: (any SharedDrawRecords)? { nil }
    var archive: (any DrawArchive)? { nil }
    func refresh(_ room: Room, forViewer: Bool, then done: @escaping (ClientErrorCode?) -> Void) { done(nil) }
    func mayBeStale(_ room: Room) -> Bool { false }
    func prepareViewer(of name: String, then go: @escaping () -> Void) { go() }
    func viewReader(for room: String, forViewer: Bool) -> @Sendable () -> StoredRoomView? { { nil } }
    func lookupSettled(_ name: String) {}
    func viewersChanged(_ room: Room) {}
    func snapshotParts(of room: Room) -> Room.SnapshotParts? { nil }
    func recording(_ write: DrawWrite, room: String) {}
    func recorded(_ write: DrawWrite, room: String) {}
    var owedHistory: (any OwedHistory)? { nil }
    func deleted(_ room: Room) {}
    func changed(_ room: Room, wire: [UInt8]) {}
    func evicted(_ room: String) {}
    func tick() {}
    func close() {}
}
