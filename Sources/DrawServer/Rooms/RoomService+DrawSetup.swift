import DrawCore
import DrawPresentation

/// What a room's next draw is made of (issue 15): its settings (rounds, pace, countdown, winners)
/// over the operator's schedule, and its own list or the operator's. Service thread only.
extension RoomService {
    /// The schedule of the room's next draw. A stored setting that no longer makes a valid
    /// schedule (edited by hand) falls back to the operator's.
    func schedule(of room: Room) -> RoundSchedule {
        room.settings.schedule(defaults: config.schedule) ?? config.schedule
    }

    /// The room's next draw as its snapshot shows it.
    func info(of room: Room) -> RoomInfo {
        RoomInfo(settings: room.settings, schedule: schedule(of: room), entrants: room.entrants)
    }

    /// Starts the room's draw with its settings and list as they are now (a draw keeps them to
    /// its end). False when one is busy.
    func startRunner(of room: Room) -> Bool {
        let runner = runner(of: room)
        runner.prepare(planner: PlanDraw(random: random, schedule: schedule(of: room), winners: room.settings.winnerCount),
                       sources: room.entrants?.sources ?? sources)
        return runner.start()
    }

    /// Loads the players of attempt `attempt` from the room's own list, if it has one: from memory
    /// without a room store, else from the store (on the storage thread; the list is read only
    /// now, not kept in memory between draws). False: the room draws from the operator's lists.
    func loadOwnList(room name: String, attempt: UInt64) -> Bool {
        guard let room = registry[name], room.entrants != nil else { return false }
        if let list = room.ownList {
            // Through the inbox like any load, so the session sees the answer after its request.
            loop.inbox.post(.playersLoaded(room: name, attempt: attempt, .success(list.merge)))
            return true
        }
        let submitted = storage.roomJob({ store throws(StorageError) in try store.entrants(ofRoom: name) }) { [unowned self] result in
            switch result {
            case .success(let list?):
                playersLoaded(room: name, attempt: attempt, .success(list.merge))
            case .success(nil):
                playersLoaded(room: name, attempt: attempt, .failure(.noPlayers(warnings: [])))
            case .failure(let error):
                logger.error("could not read a room's entrants", metadata: ["room": "\(name)", "error": "\(error)"])
                playersLoaded(room: name, attempt: attempt, .failure(.storageFailure))
            }
        }
        if !submitted { loop.inbox.post(.playersLoaded(room: name, attempt: attempt, .failure(.storageFailure))) }
        return true
    }
}
