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
                       sources: room.entrants?.sources ?? room.sourceURLs ?? sources)
        return runner.start()
    }

    /// Fetches the room's list from its URLs, off the service thread (rule 2; the result comes
    /// back through the inbox). URLs the rules no longer allow, or room URLs turned off since,
    /// fail the draw with `source_refused`.
    private func loadFromURLs(_ urls: DrawSources, room name: String, attempt: UInt64) {
        let inbox = loop.inbox
        guard let fetcher = config.roomURLSources else {
            let error = DrawError.source(.refused(source: urls.usersURL, reason: "this server takes no list URLs for rooms any more"))
            return inbox.post(.playersLoaded(room: name, attempt: attempt, .failure(error)))
        }
        Task.detached {
            let result: Result<MergeResult, DrawError>
            do throws(DrawError) { result = .success(try await fetcher.load(urls)) } catch { result = .failure(error) }
            inbox.post(.playersLoaded(room: name, attempt: attempt, result))
        }
    }

    /// Loads the players of attempt `attempt` from the room's own list, if it has one: from memory
    /// without a room store, else from the store (on the storage thread; the list is read only
    /// now, not kept in memory between draws). False: the room draws from the operator's lists.
    func loadOwnList(room name: String, attempt: UInt64) -> Bool {
        guard let room = registry[name] else { return false }
        if let urls = room.sourceURLs {
            loadFromURLs(urls, room: name, attempt: attempt)
            return true
        }
        guard room.entrants != nil else { return false }
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
