import DrawCore
import DrawPresentation

/// The host's actions on a draw's winners (issue 28, docs/FAIRNESS.md §5a, §5b): draw the next
/// winner of a draw waiting for it, and redraw a removed winner of the room's last draw. The key
/// is checked as for a start; what is allowed is DrawCore's to decide (`DrawSession`,
/// `RedrawLink.make`). Service thread only.
extension DrawCoordinator {
    /// Starts the next winner's flips; `nil` when accepted.
    func nextWinner(in room: Room, hostKey: String?) -> ClientErrorCode? {
        guard let hostKey, !hostKey.isEmpty else { return .unauthorized }
        guard room.keyHash.matches(hostKey) else { return .forbidden }
        guard let runner = room.runner, runner.nextWinner() else { return .noWinnerWaiting }
        directory.touch(room)
        return nil
    }

    /// Redraws winner `userId` of draw `drawId`, which must be the room's last result: a new draw
    /// of one winner among its entrants no slot drew, linked to it. Goes through the start gate
    /// like any draw (cluster mode: the room's lease). `answer` gets `nil` once accepted.
    func redraw(in room: Room, hostKey: String?, drawId: String, userId: Int,
                then answer: @escaping (ClientErrorCode?) -> Void) {
        gate.admit(room, refusal: { [unowned self] in
            if let refusal = refuseStart(in: room, hostKey: hostKey) { return refusal }
            guard let last = room.lastResult, last.plan.drawId == drawId else { return .notRedrawable }
            return nil
        }, start: { [unowned self] in
            guard let last = room.lastResult, last.plan.drawId == drawId else { return .notRedrawable }
            switch RedrawLink.make(redrawing: last.plan, removing: userId) {
            case .failure(.notFinished): return .notRedrawable
            case .failure(.notAWinner): return .notAWinner
            case .failure(.nobodyLeft): return .nobodyLeft
            case .success(let decided):
                let runner = runner(of: room)
                runner.prepare(planner: PlanDraw(random: random, schedule: room.schedule(defaults: config.schedule)),
                               sources: config.redrawSources(of: last.plan))
                guard runner.redraw(decided.link, players: decided.players) else { return .drawRunning }
                directory.touch(room)
                return nil
            }
        }, then: answer)
    }
}

private extension ServerConfig {
    /// Where a redraw's players come from, for its record: the draw it redraws.
    func redrawSources(of plan: DrawPlan) -> DrawSources {
        DrawSources(usersURL: "redraw:\(plan.drawId)", lotteryURL: "redraw:\(plan.drawId)")
    }
}
