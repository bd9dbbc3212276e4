import DrawCore
import DrawPresentation

/// The host's actions on a draw's winners (issue 28, docs/FAIRNESS.md §5a, §5b): draw the next
/// winner of a draw waiting for it, and redraw a removed winner of the room's last draw. The key
/// is checked as for a start; what is allowed is DrawCore's to decide (`DrawSession`,
/// `RedrawLink.make`). Service thread only.
extension DrawCoordinator {
    /// Starts the next winner's flips; `answer` gets `nil` when accepted. A key this node's copy
    /// of the room refuses is checked again against the shared store first (`checkHost`).
    func nextWinner(in room: Room, hostKey: String?, then answer: @escaping (ClientErrorCode?) -> Void) {
        guard let hostKey, !hostKey.isEmpty else { return answer(.unauthorized) }
        guard room.keyHash.matches(hostKey) else {
            return directory.checkHost(room, key: hostKey) { [unowned self] refusal in
                // Only a key that did not match gets here (the lobby's is never read again).
                if let refusal { return answer(refusal.code) }
                answer(nextWinnerChecked(in: room))
            }
        }
        answer(nextWinnerChecked(in: room))
    }

    /// The next winner once the key is checked.
    private func nextWinnerChecked(in room: Room) -> ClientErrorCode? {
        guard let runner = room.runner, runner.nextWinner() else { return .noWinnerWaiting }
        directory.touch(room)
        return nil
    }

    /// Redraws winner `userId` of draw `drawId`, which must be the room's last result: a new draw
    /// of one winner among its entrants no slot drew, linked to it. Goes through the start gate
    /// like any draw (cluster mode: the room's lease). `answer` gets `nil` once accepted.
    ///
    /// The draw redrawn is this node's own last result, or, in a cluster, one another node ran:
    /// its record is read from the shared history first (the plan stays with the node that ran it).
    func redraw(in room: Room, hostKey: String?, drawId: String, userId: Int,
                then answer: @escaping (ClientErrorCode?) -> Void) {
        // No read of the shared history for a request without a key (the key itself is checked
        // once the gate has the room's latest record).
        guard let hostKey, !hostKey.isEmpty else { return answer(.unauthorized) }
        guard room.lastResult?.plan.drawId != drawId, let records = shared.records else {
            return admitRedraw(in: room, hostKey: hostKey, drawId: drawId, userId: userId, record: nil, then: answer)
        }
        let read = storage.roomJob({ _ throws(StorageError) -> DrawRecord? in
            (try? records.body(drawId: drawId)).flatMap { $0 }.flatMap(RecordBodyDecoder.decode)
        }) { [unowned self, unowned room] result in
            let record = try? result.get()
            admitRedraw(in: room, hostKey: hostKey, drawId: drawId, userId: userId, record: record ?? nil, then: answer)
        }
        if !read { answer(.clusterUnavailable) }
    }

    private func admitRedraw(in room: Room, hostKey: String?, drawId: String, userId: Int, record: DrawRecord?,
                             then answer: @escaping (ClientErrorCode?) -> Void) {
        gate.admit(room, refusal: { [unowned self] in
            if let refusal = refuseStart(in: room, hostKey: hostKey) { return refusal }
            guard lastResultId(of: room) == drawId else { return .notRedrawable }
            return nil
        }, start: { [unowned self] in
            guard lastResultId(of: room) == drawId else { return .notRedrawable }
            let decision: Result<(link: RedrawLink, players: MergeResult), RedrawRefusal>
            if let last = room.lastResult, last.plan.drawId == drawId {
                decision = RedrawLink.make(redrawing: last.plan, removing: userId, limit: config.maxRedraws)
            } else if let record, record.drawId == drawId, record.room == room.name {
                // The room shows this draw as its last result, so it ended; a record still
                // `running` is the shared history catching up (the running node's end line is on
                // its way): try again shortly, not "cannot be redrawn".
                if record.status == .running { return .clusterUnavailable }
                decision = RedrawLink.make(redrawing: record, removing: userId, limit: config.maxRedraws)
            } else {
                // Another node's draw whose record is not in the shared history yet (its line is
                // on its way): a moment later it is.
                return shared.records == nil ? .notRedrawable : .clusterUnavailable
            }
            switch decision {
            case .failure(.notFinished): return .notRedrawable
            case .failure(.notAWinner): return .notAWinner
            case .failure(.nobodyLeft): return .nobodyLeft
            case .failure(.limitReached): return .redrawLimit
            case .success(let decided):
                let runner = runner(of: room)
                runner.prepare(planner: PlanDraw(random: random, schedule: room.schedule(defaults: config.schedule)),
                               sources: config.redrawSources(of: drawId))
                guard runner.redraw(decided.link, players: decided.players) else { return .drawRunning }
                directory.touch(room)
                return nil
            }
        }, then: answer)
    }

    /// The id of the room's last result as its snapshot shows it: another node's (cluster mode),
    /// which this node's own older one does not outrank, else this node's.
    private func lastResultId(of room: Room) -> String? {
        room.remote.lastResult.flatMap(RemoteRoomView.drawId(ofResult:)) ?? room.lastResult?.plan.drawId
    }
}

private extension ServerConfig {
    /// Where a redraw's players come from, for its record: the draw it redraws.
    func redrawSources(of drawId: String) -> DrawSources {
        DrawSources(usersURL: "redraw:\(drawId)", lotteryURL: "redraw:\(drawId)")
    }
}
