import DrawCore
import Logging
import DrawTransport

/// The draw store's side of the server: the store, the one thread that calls it (threading
/// rule 5 on `LiveDrawServer`), and what the service thread hands that thread: draw writes,
/// history reads, room lookups and changes (`roomJob`), the shutdown barrier. Results come back
/// through the inbox (rule 2).
///
/// Service thread only, except `close()` (see there).
final class ServerStorage {
    /// Where draws are recorded (the caller's store, holding aborts it cannot take yet); `nil`:
    /// no records and no history endpoints.
    let store: RecoveringDrawStore?
    /// The one thread that calls `store`; `nil` without a store and once `close()` ran. Set and
    /// cleared on the thread that owns the server's lifecycle (`init`, then the end of `run()` or
    /// `deinit`), read on the service thread in between.
    private(set) var thread: StorageThread?
    /// Where rooms are kept (the same SQLite store in the executable, Redis in cluster mode); `nil`:
    /// rooms live in memory only, as long as the process. Only with a draw store.
    let rooms: CheckedRoomStore?
    /// The thread that calls `rooms` when it is not the draw store's (cluster mode: Redis, whose
    /// round trips, and waits while it is away, must not hold up every room's SQLite writes);
    /// `nil`: room jobs run on `thread`, in order with the draws' writes.
    private var roomThread: StorageThread?
    /// Where scheduled draws wait (issue 30): the room store, when it keeps them; `nil`: they
    /// live in memory only, as long as the process.
    let schedules: (any ScheduledDrawStore)?
    private let executor: ServiceExecutor
    private let logger: Logger

    /// Starts the storage thread when there is a store, and with `roomsOnOwnThread` a second one
    /// for the room store.
    init(store: (any DrawRecordStore)?, rooms: (any RoomStore)?, roomsOnOwnThread: Bool = false,
         executor: ServiceExecutor, logger: Logger) {
        let recovering = store.map { RecoveringDrawStore($0) }
        self.store = recovering
        if let recovering, let rooms, roomsOnOwnThread {
            let owner = ThreadOwner(name: "rooms")
            self.rooms = CheckedRoomStore(rooms, owner: owner)
            roomThread = StorageThread(name: "live-draw rooms", claiming: owner)
        } else {
            self.rooms = recovering.flatMap { recovering in rooms.map { CheckedRoomStore($0, owner: recovering.owner) } }
        }
        // Only with a room store: a scheduled draw is a room's, and is called where rooms are.
        self.schedules = self.rooms?.inner as? any ScheduledDrawStore
        self.executor = executor
        self.logger = logger
        if let recovering { thread = StorageThread(store: recovering) }
    }

    /// Runs `job` against the room store on the storage thread, then `then` with its result on
    /// the service thread (through the inbox). False, with nothing run, when there is no room
    /// store or the thread no longer takes work.
    func roomJob<T: Sendable>(_ job: @escaping @Sendable (any RoomStore) throws(StorageError) -> T,
                              then: @escaping (Result<T, StorageError>) -> Void) -> Bool {
        guard let rooms else { return false }
        return run(job, on: rooms, in: roomThread ?? thread, then: then)
    }

    /// Runs `job` against the scheduled draws' store where room jobs run, then `then` with its
    /// result on the service thread. False, with nothing run, without one.
    func scheduleJob<T: Sendable>(_ job: @escaping @Sendable (any ScheduledDrawStore) throws(StorageError) -> T,
                                  then: @escaping (Result<T, StorageError>) -> Void) -> Bool {
        guard let schedules else { return false }
        return run(job, on: schedules, in: roomThread ?? thread, then: then)
    }

    /// Whether room jobs run on the draw store's thread (one job may then call both stores).
    var roomsShareDrawThread: Bool { roomThread == nil }

    /// Hands a draw write to the storage thread; `then` gets its outcome on the service thread
    /// (`nil`: it is on disk). False without a store or once the thread is done.
    func record(_ write: DrawWrite, then: @escaping (StorageError?) -> Void) -> Bool {
        guard let thread, store != nil else { return false }
        // Rule 5: the store is called on the storage thread only; the outcome comes back as a
        // service-thread job (rule 2).
        let back = executor.continuation(then)
        return thread.submit(write) { error in back(error) }
    }

    /// Whether draws are recorded (there is a store).
    var recordsDraws: Bool { store != nil }

    /// Which thread a job reads on: the draw store's, or the room store's (the shared store in
    /// cluster mode: Redis; the same thread as the draws' on one node).
    enum Reads {
        case draws
        case shared
    }

    /// Runs `job` on the thread that reads `reads`. False when it no longer takes work (or there
    /// is none).
    func submit(_ job: @escaping StorageThread.Job, reading reads: Reads = .draws) -> Bool {
        switch reads {
        case .draws: return thread?.submit(job) ?? false
        case .shared: return (roomThread ?? thread)?.submit(job) ?? false
        }
    }

    /// Runs `job` where the shared store is read (`Reads.shared`), then `then` with its result on
    /// the service thread. False, with nothing run, once the thread no longer takes work.
    func sharedJob<T: Sendable>(_ job: @escaping @Sendable () -> T, then: @escaping (T) -> Void) -> Bool {
        let back = executor.continuation(then)
        return submit({ back(job()) }, reading: .shared)
    }

    /// Runs `read` against the draw store on the storage thread, then `then` with its result on
    /// the service thread. False, with nothing run, without a store or once the thread is done.
    func drawJob<T: Sendable>(_ read: @escaping @Sendable (RecoveringDrawStore) throws(StorageError) -> T,
                              then: @escaping (Result<T, StorageError>) -> Void) -> Bool {
        guard let store else { return false }
        return run(read, on: store, in: thread, then: then)
    }

    /// Runs `job` on `store` on the storage thread and hands its result to `then` on the service
    /// thread (`ServiceExecutor.continuation`).
    private func run<Store: Sendable, T: Sendable>(_ job: @escaping @Sendable (Store) throws(StorageError) -> T,
                                                   on store: Store, in thread: StorageThread?,
                                                   then: @escaping (Result<T, StorageError>) -> Void) -> Bool {
        guard let thread else { return false }
        let back = executor.continuation(then)
        return thread.submit {
            let result: Result<T, StorageError>
            do throws(StorageError) { result = .success(try job(store)) } catch { result = .failure(error) }
            back(result)
        }
    }

    /// Shutdown's first phase: queue a barrier behind every write submitted so far (the aborts'
    /// records included). False without a store: there is nothing to wait for.
    func awaitDrain(then drained: @escaping () -> Void) -> Bool {
        guard let thread else { return false }
        let back = executor.continuation { (_: Void) in drained() }
        return thread.submit { back(()) }
    }

    /// Jobs queued and not done (logs).
    var pending: Int { thread?.pending ?? 0 }

    /// Ends the storage thread and closes the store, once the service loop is over (end of
    /// `run()`) or from `deinit`; never concurrently with the service thread. Writes still queued
    /// (the shutdown grace ran out) then fail as `closed`; their draws stay `running` on disk and
    /// the next start marks them `interrupted`, which is exactly what a crash would have left.
    func close() {
        guard let thread else { return }
        self.thread = nil
        roomThread?.finish()
        roomThread = nil
        thread.finish()
        let left = thread.pending
        if left > 0 {
            logger.warning("closing the draw store with writes still queued; the next start marks their draws interrupted",
                           metadata: ["queued": "\(left)"])
        }
        // Waits for the call in progress, if any (SQLiteDrawStore takes its lock).
        store?.close()
    }
}
