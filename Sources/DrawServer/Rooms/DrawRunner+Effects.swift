import DrawCore
import DrawPresentation

/// How a runner carries out what its session asks, and the metrics and logs it reads off those
/// effects (the session decides; this only says what happened). Service thread only.
extension DrawRunner {
    func perform(_ effects: [DrawEffect], for input: DrawInput) {
        let t = input.at
        for effect in effects {
            switch effect {
            case .publish(let event):
                observe(event, at: t)
                // The in-process bus delivers synchronously: a round's fan-out starts right here,
                // just after its sentAt was stamped (the input's time).
                deps.bus.publish(event, room: room)
            case .loadPlayers(let attempt):
                deps.beginLoading(room, attempt)
            case .write(let write):
                if case .finish(_, .finished, _, _) = write { resultWriteSince = t.nanos }
                if case .finish(_, .aborted(let reason), _, _) = write, !effects.contains(where: Self.isAborted) {
                    deps.logger.info("draw dropped before it was published", metadata: [
                        "room": "\(room)", "drawId": "\(write.drawId)", "reason": "\(reason)",
                    ])
                }
                deps.record?(write)
            case .wake(let due):
                // Read after the fan-outs above, so their time does not lengthen the gap.
                let now = deps.clock.monotonicNanos()
                wakeDueNanos = due
                timer?.schedule(afterNanos: due > now ? due - now : 0)
            case .cancelWake:
                wakeDueNanos = nil
                timer?.cancel()
            case .fetchBeacon(let drawId, _, let round):
                deps.fetchBeacon(drawId, round)
            }
        }
    }

    /// Metrics and logs for an event about to be published at `t`.
    private func observe(_ event: DrawEvent, at t: DrawInstant) {
        switch event {
        case .loading:
            deps.logger.info("draw loading", metadata: ["room": "\(room)"])
        case .started(let plan, _):
            deps.metrics.drawStarted()
            deps.logger.info("draw started", metadata: [
                "room": "\(room)", "drawId": "\(plan.drawId)", "entrants": "\(plan.entrants.count)",
            ])
        case .round:
            // Against when it was due (planned, or one gap after a late previous round), so a
            // late round is counted once, not again in every round after it.
            let due = wakeDueNanos ?? t.nanos
            deps.metrics.roundLateness(nanos: t.nanos > due ? t.nanos - due : 0)
        case .finished(let plan, _, _):
            if let since = resultWriteSince {
                deps.metrics.resultWriteDelay(nanos: t.nanos > since ? t.nanos - since : 0)
                resultWriteSince = nil
            }
            deps.metrics.drawFinished(outcome: plan.outcome.wireName)
            deps.logger.info("draw finished", metadata: ["room": "\(room)", "drawId": "\(plan.drawId)"])
        case .failed(let error):
            deps.metrics.drawFailed(code: error.code)
            deps.logger.warning("draw failed", metadata: ["room": "\(room)", "code": "\(error.code)"])
        case .winner(let plan, let slot, _, _):
            deps.logger.info("winner revealed", metadata: ["room": "\(room)", "drawId": "\(plan.drawId)", "winner": "\(slot)"])
        case .nextWinner:
            break
        case .aborted(let plan, _, let reason):
            resultWriteSince = nil
            deps.metrics.drawAborted(reason: reason)
            deps.logger.info("draw aborted", metadata: ["room": "\(room)", "drawId": "\(plan.drawId)", "reason": "\(reason)"])
        }
    }

    private static func isAborted(_ effect: DrawEffect) -> Bool {
        if case .publish(.aborted) = effect { return true }
        return false
    }
}
