import DrawCore
import DrawPresentation

/// Starting a scheduled draw (issue 30): the one way into a draw made from inputs committed
/// before its start (`ScheduledDraw.plan`, `DrawSession.startScheduled`): a beacon round R it
/// committed to is in `draw` and waited for by the session (FAIRNESS.md §10.1). Service thread only.
extension DrawCoordinator {
    /// Starts `draw` in `room` through the start gate like any draw (cluster mode: the room's
    /// lease). No host key: it was checked when the draw was scheduled. `answer` gets `nil` once
    /// it started, else why not (a draw running, the server draining, ...).
    func startScheduled(_ draw: ScheduledDraw, in room: Room, then answer: @escaping (ClientErrorCode?) -> Void) {
        gate.admit(room, refusal: { [unowned self] in refuseAnyStart(in: room) }, start: { [unowned self] in
            guard runner(of: room).startScheduled(draw) else { return .drawRunning }
            directory.touch(room)
            return nil
        }, then: answer)
    }

    /// Records a scheduled draw that will never run (cancelled, missed): its plan and at once its
    /// end, `aborted` with `reason`, seed revealed (`ScheduledDraw.unrunRecord`); shared with the
    /// cluster like any draw's steps. `done` gets whether both writes are on disk.
    func recordUnrun(_ draw: ScheduledDraw, reason: String, then done: @escaping (Bool) -> Void) {
        let writes = draw.unrunRecord(reason: reason, at: clock.epochMillis())
        guard storage.recordsDraws else { return done(true) }
        var failed = false, owed = writes.count
        for write in writes {
            shared.recording(write, room: draw.room)
            let submitted = storage.record(write) { [unowned self] error in
                if let error {
                    failed = true
                    logger.error("could not record a scheduled draw", metadata: [
                        "room": "\(draw.room)", "drawId": "\(draw.drawId)", "reason": "\(reason)", "error": "\(error)"])
                } else {
                    shared.recorded(write, room: draw.room)
                }
                owed -= 1
                if owed == 0 { done(!failed) }
            }
            if !submitted {
                failed = true
                owed -= 1
                if owed == 0 { done(false) }
            }
        }
    }
}
