import DrawCore
import DrawPresentation

/// Where a draw's players come from (issue 15): the room's own list (kept in memory without a
/// room store, else read from the store at the start), its list URLs, or the operator's lists.
/// Every load runs off the service thread (rule 2) and its answer goes back to the runner that
/// asked (`playersArrived`). Service thread only.
extension DrawCoordinator {
    /// Starts loading the players of attempt `attempt` of `runner`'s draw in `room`.
    func beginLoading(_ attempt: UInt64, of runner: DrawRunner, in room: Room) {
        loadRoomPlayers(of: room, then: playersArrived(for: runner, attempt: attempt, in: room))
    }

    /// Loads `room`'s players as a draw starting now would get them (a scheduled draw freezes
    /// them so, issue 30); `arrived` runs on the service thread.
    func loadRoomPlayers(of room: Room, then arrived: @escaping (Result<MergeResult, DrawError>) -> Void) {
        // From a task (a fetch), or as a job of its own (a list in memory: the session sees the
        // answer after its request); a store read comes back on the service thread already.
        let done = executor.continuation(arrived)
        if let urls = room.sourceURLs { return loadFromURLs(urls, done: done) }
        guard room.entrants != nil else {
            let load = loadPlayers
            Task.detached {
                let result: Result<MergeResult, DrawError>
                do throws(DrawError) { result = .success(try await load()) } catch { result = .failure(error) }
                done(result)
            }
            return
        }
        if let list = room.ownList {
            // As a job like any load, so the session sees the answer after its request.
            return done(.success(list.merge))
        }
        let name = room.name, logger = self.logger
        let submitted = storage.roomJob({ store throws(StorageError) in try store.entrants(ofRoom: name) }) { result in
            switch result {
            case .success(let list?):
                arrived(.success(list.merge))
            case .success(nil):
                arrived(.failure(.noPlayers(warnings: [])))
            case .failure(let error):
                logger.error("could not read a room's entrants", metadata: ["room": "\(name)", "error": "\(error)"])
                arrived(.failure(.storageFailure))
            }
        }
        if !submitted { done(.failure(.storageFailure)) }
    }

    /// Fetches the room's list from its URLs, off the service thread. URLs the rules no longer
    /// allow, or room URLs turned off since, fail the draw with `source_refused`.
    private func loadFromURLs(_ urls: DrawSources, done: @escaping @Sendable (Result<MergeResult, DrawError>) -> Void) {
        guard let fetcher = config.roomURLSources else {
            return done(.failure(.source(.refused(source: urls.usersURL,
                                                  reason: "this server takes no list URLs for rooms any more"))))
        }
        Task.detached {
            let result: Result<MergeResult, DrawError>
            do throws(DrawError) { result = .success(try await fetcher.load(urls)) } catch { result = .failure(error) }
            done(result)
        }
    }
}
