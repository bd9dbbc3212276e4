import DrawCore
import DrawTransport
import Foundation

/// Work other threads hand to the service thread.
enum ServiceCommand: Sendable {
    /// A draw's players finished loading (on a background task).
    case playersLoaded(room: String, attempt: UInt64, Result<MergeResult, DrawError>)
    /// A draw write returned from the storage thread; `error` is `nil` when it is on disk.
    case recorded(room: String, DrawWrite, error: StorageError?)
    /// A history read returned from the storage thread: the response for waiting request `request`.
    case storageAnswered(request: UInt64, HTTPResponse)
    /// A room-store job returned from the storage thread: its continuation, to run here
    /// (`ServerStorage.roomJob`).
    case storageReturned(@Sendable () -> Void)
    /// Cluster mode: a message on a room's event channel (from the subscriber's thread).
    case clusterEvent(room: String, [UInt8])
    /// Cluster mode: a room's view as the cluster's store has it (read after a missed end).
    case clusterView(room: String, StoredRoomView)
    /// Cluster mode: a job of the cluster worker returned (a lease answer, a publish's outcome).
    case clusterReturned(@Sendable () -> Void)
    /// Every storage job submitted before shutdown began has run (the shutdown barrier).
    case storageDrained
    /// `drain()` was called.
    case drain
    /// `stop()` was called.
    case shutdown
    /// Run this on the service thread (`LiveDrawServer.onServiceThread`); tests use it to reach
    /// service-thread state such as `readiness` without a race.
    case perform(@Sendable () -> Void)
}

/// The server's inbox: commands posted from any thread, drained on the service thread.
typealias ServiceInbox = LoopInbox<ServiceCommand>
